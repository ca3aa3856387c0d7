// The status-stream benchmark (npm run bench stream, or node --import tsx test/bench/stream.ts):
// 10,000 concurrent streams over 100 orders on one gateway process, a transition driven on every
// order, and the same number of streams on a bare Fastify SSE broadcaster measured in the same run.
// Reports RSS per 1,000 streams after GC, upstream subscriptions, and the time from the transition to
// the last client receiving it. Processes: this one (orchestrator and sandbox upstream), the gateway,
// the baseline, and the clients, each in its own process with the open-files limit raised.
import type { AddressInfo } from 'node:net'
import { buildSandbox } from '../../src/sandbox/app.js'
import { BENCH_TENANT_KEY } from './bench-key.js'
import { type Message, type Peer, spawnPeer, wallNow } from './stream-ipc.js'

const ORDERS = Number(process.env.BENCH_STREAM_ORDERS ?? 100)
const PER_ORDER = Number(process.env.BENCH_STREAM_PER_ORDER ?? 100)
const CONCURRENCY = 200
const ROUND_TIMEOUT_MS = 60_000
const TARGET_MB_PER_1000 = 10
const TARGET_RATIO = 1.5

interface Memory extends Message {
  rss: number
  heapUsed: number
  stats: Record<string, number>
}
interface Round extends Message {
  round: number
  connections: number
  count?: number
  last?: number
}

const mb = (bytes: number) => bytes / (1024 * 1024)
const fixed = (n: number, digits = 1) => n.toFixed(digits)

async function measure(peer: Peer): Promise<Memory> {
  return peer.ask<Memory>({ type: 'measure' }, 'memory')
}

/** Opens every stream from the client process; returns the server's memory growth per 1,000 streams. */
async function hold(client: Peer, server: Peer, urls: string[]) {
  const before = await measure(server)
  const opened = await client.ask<Message & { count: number; ms: number }>(
    { type: 'open', urls, perUrl: PER_ORDER, concurrency: CONCURRENCY },
    'opened',
  )
  const after = await measure(server)
  const per1000 = (mb(after.rss - before.rss) * 1000) / opened.count
  return { opened, before, after, per1000 }
}

/** Asks the client to time one round, fires the trigger, and returns trigger-to-last-client in ms. */
async function round(client: Peer, n: number, trigger: () => Promise<number>) {
  const done = client.ask<Round>({ type: 'await-round', round: n, timeoutMs: ROUND_TIMEOUT_MS }, 'round')
  const t0 = await trigger()
  const r = await done
  if (r.count !== r.connections || r.last === undefined) {
    throw new Error(`round ${n}: only ${r.count ?? 0} of ${r.connections} clients received the event`)
  }
  return r.last - t0
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

type Token = {
  id: number
  symbol: string
  active: boolean
  isBaseToken: boolean
  blockchain: { network: string }
}

async function createOrders(gatewayUrl: string, tokens: Token[]): Promise<string[]> {
  const usdt = tokens.find((t) => t.symbol === 'USDT' && t.blockchain.network === 'ETH' && t.active)
  const eth = tokens.find((t) => t.isBaseToken && t.blockchain.network === 'ETH' && t.active)
  if (!usdt || !eth) throw new Error('the sandbox catalog lacks USDT and ETH on ETH')
  const uuids: string[] = []
  for (let n = 0; n < ORDERS; n++) {
    const order = await json<{ uuid: string }>(`${gatewayUrl}/api/v1/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        depositTokenId: usdt.id,
        settleTokenId: eth.id,
        receivingAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
        intendedAmount: 100 + n,
        intendedIsDeposit: true,
      }),
    })
    uuids.push(order.uuid)
  }
  return uuids
}

export async function benchStream() {
  const { app: sandboxApp, control } = buildSandbox({ tenantKey: BENCH_TENANT_KEY })
  await sandboxApp.listen({ port: 0, host: '127.0.0.1' })
  const upstream = `http://127.0.0.1:${(sandboxApp.server.address() as AddressInfo).port}`
  const peers: Peer[] = []
  const start = async (script: string, args: string[] = []) => {
    const peer = await spawnPeer(script, args)
    peers.push(peer)
    return peer
  }
  try {
    // The gateway.
    const gateway = await start('test/bench/stream-gateway.ts', [upstream])
    const gatewayUrl = String(gateway.ready.url)
    const uuids = await createOrders(gatewayUrl, control.tokens())
    const orderBytes = (await (await fetch(`${gatewayUrl}/api/v1/orders/${uuids[0]}`)).arrayBuffer())
      .byteLength
    let client = await start('test/bench/stream-client.ts')
    const gw = await hold(
      client,
      gateway,
      uuids.map((uuid) => `${gatewayUrl}/api/orders/${uuid}/status-stream`),
    )
    const subscriptions = { gateway: gw.after.stats.upstreamSubscriptions, sandbox: control.openStreams() }
    const gwTimes: number[] = []
    for (const [n, move] of [
      [1, (uuid: string) => control.deposit(uuid)],
      [2, (uuid: string) => control.confirm(uuid)],
    ] as const) {
      gwTimes.push(
        await round(client, n, async () => {
          const t0 = wallNow()
          for (const uuid of uuids) move(uuid)
          return t0
        }),
      )
    }
    await client.ask({ type: 'close' }, 'closed')
    client.stop()
    gateway.stop()

    // The baseline, with events of the same size as the gateway's (the order plus the update fields).
    const bare = await start('test/bench/stream-bare.ts', [String(orderBytes + 120)])
    client = await start('test/bench/stream-client.ts')
    const bareUrl = String(bare.ready.url)
    const base = await hold(
      client,
      bare,
      uuids.map((uuid) => `${bareUrl}/bare/${uuid}/status-stream`),
    )
    const bareTimes: number[] = []
    for (const n of [1, 2]) {
      bareTimes.push(
        await round(
          client,
          n,
          async () => (await bare.ask<Message & { t0: number }>({ type: 'broadcast' }, 'broadcasted')).t0,
        ),
      )
    }

    const worst = (xs: number[]) => Math.max(...xs)
    const ratio = worst(gwTimes) / worst(bareTimes)
    const rows = [
      ['streams held', `${gw.opened.count}`, `${base.opened.count}`, ''],
      ['time to open them (s)', fixed(gw.opened.ms / 1000), fixed(base.opened.ms / 1000), ''],
      ['RSS before, after GC (MB)', fixed(mb(gw.before.rss)), fixed(mb(base.before.rss)), ''],
      ['RSS with streams, after GC (MB)', fixed(mb(gw.after.rss)), fixed(mb(base.after.rss)), ''],
      [
        'RSS per 1,000 streams (MB)',
        fixed(gw.per1000, 2),
        fixed(base.per1000, 2),
        fixed(gw.per1000 / base.per1000, 2),
      ],
      ['transition → last client, round 1 (ms)', fixed(gwTimes[0]!), fixed(bareTimes[0]!), ''],
      ['transition → last client, round 2 (ms)', fixed(gwTimes[1]!), fixed(bareTimes[1]!), ''],
      [
        'transition → last client, worst (ms)',
        fixed(worst(gwTimes)),
        fixed(worst(bareTimes)),
        fixed(ratio, 2),
      ],
    ]
    console.log(
      `\nstatus streams: ${ORDERS} orders × ${PER_ORDER} streams, event ≈ ${orderBytes + 120} bytes`,
    )
    console.log(
      `${'measure'.padEnd(42)}${'gateway'.padStart(10)}${'bare'.padStart(10)}${'ratio'.padStart(8)}`,
    )
    for (const [name, a, b, r] of rows)
      console.log(`${name!.padEnd(42)}${a!.padStart(10)}${b!.padStart(10)}${r!.padStart(8)}`)
    console.log(
      `upstream subscriptions: gateway ${subscriptions.gateway}, sandbox ${subscriptions.sandbox} (must be ${ORDERS})`,
    )
    console.log(
      `targets: ≤${TARGET_MB_PER_1000} MB per 1,000 streams: ${gw.per1000 <= TARGET_MB_PER_1000 ? 'met' : 'MISSED'}; ` +
        `transition → last client ≤${TARGET_RATIO}× bare: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'}; ` +
        `one subscription per order: ${subscriptions.gateway === ORDERS && subscriptions.sandbox === ORDERS ? 'met' : 'MISSED'}`,
    )
  } finally {
    for (const p of peers) p.stop()
    await sandboxApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStream()
