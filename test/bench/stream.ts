// The status-stream benchmark (npm run bench stream, or node --import tsx test/bench/stream.ts):
// 10,000 concurrent streams over 100 orders on one gateway process, a transition driven on every
// order, and the same number of streams on a bare Fastify SSE broadcaster measured in the same run.
// Reports RSS per 1,000 streams after GC, upstream subscriptions, and the time from the transition to
// the last client receiving it. Processes: this one (orchestrator and sandbox upstream), the gateway,
// the baseline, and the clients, each in its own process with the open-files limit raised.
import type { AddressInfo } from 'node:net'
import type { SandboxControl } from '../../src/sandbox/app.js'
import { buildSandbox } from '../../src/sandbox/app.js'
import { BENCH_TENANT_KEY, createOrders } from './setup.js'
import { type Message, type Peer, spawnPeer, wallNow } from './stream-ipc.js'

const ORDERS = Number(process.env.BENCH_STREAM_ORDERS ?? 100)
const PER_ORDER = Number(process.env.BENCH_STREAM_PER_ORDER ?? 100)
const CONCURRENCY = 200
const ROUND_TIMEOUT_MS = 60_000
/** Quiet time before each round, so one round's aftermath (GC, closing) is not charged to the next. */
const SETTLE_MS = 2_000
const TARGET_MB_PER_1000 = 10
const TARGET_RATIO = 1.5

/** Three transitions on every order: the first meets cold code and connections; the last is terminal. */
const ROUNDS = [
  { name: 'deposit (first, cold)', move: (c: SandboxControl, uuid: string) => c.deposit(uuid), end: false },
  { name: 'confirm', move: (c: SandboxControl, uuid: string) => c.confirm(uuid), end: false },
  {
    name: 'complete (terminal, ends streams)',
    move: (c: SandboxControl, uuid: string) => c.complete(uuid),
    end: true,
  },
]

interface Memory extends Message {
  rss: number
  heapUsed: number
  stats: Record<string, number>
}
interface Round extends Message {
  connections: number
  count?: number
  first?: number
  last?: number
}
interface Timing {
  first: number
  last: number
}

const mb = (bytes: number) => bytes / (1024 * 1024)
const fixed = (n: number, digits = 1) => n.toFixed(digits)
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

/** Opens every stream from the client process; returns the server's memory growth per 1,000 streams. */
async function hold(client: Peer, server: Peer, urls: string[]) {
  const before = await server.ask<Memory>({ type: 'measure' }, 'memory')
  const opened = await client.ask<Message & { count: number; ms: number }>(
    { type: 'open', urls, perUrl: PER_ORDER, concurrency: CONCURRENCY },
    'opened',
  )
  const after = await server.ask<Memory>({ type: 'measure' }, 'memory')
  const per1000 = (n: number) => (mb(n) * 1000) / opened.count
  return {
    opened,
    before,
    after,
    rssPer1000: per1000(after.rss - before.rss),
    heapPer1000: per1000(after.heapUsed - before.heapUsed),
  }
}

/** Asks the client to time one round, fires the trigger, and returns trigger-to-client times in ms. */
async function round(client: Peer, n: number, trigger: () => Promise<number>): Promise<Timing> {
  await settle()
  const done = client.ask<Round>({ type: 'await-round', round: n, timeoutMs: ROUND_TIMEOUT_MS }, 'round')
  const t0 = await trigger()
  const r = await done
  if (r.count !== r.connections || r.first === undefined || r.last === undefined) {
    throw new Error(`round ${n}: only ${r.count ?? 0} of ${r.connections} clients received the event`)
  }
  return { first: r.first - t0, last: r.last - t0 }
}

function report(
  eventBytes: number,
  gw: Awaited<ReturnType<typeof hold>>,
  base: Awaited<ReturnType<typeof hold>>,
  gwTimes: Timing[],
  bareTimes: Timing[],
  subscriptions: { gateway: number | undefined; sandbox: number },
) {
  const rows: string[][] = [
    ['streams held', `${gw.opened.count}`, `${base.opened.count}`, ''],
    ['time to open them (s)', fixed(gw.opened.ms / 1000), fixed(base.opened.ms / 1000), ''],
    ['RSS without streams, after GC (MB)', fixed(mb(gw.before.rss)), fixed(mb(base.before.rss)), ''],
    ['RSS with the streams, after GC (MB)', fixed(mb(gw.after.rss)), fixed(mb(base.after.rss)), ''],
    ['heap per 1,000 streams (MB)', fixed(gw.heapPer1000, 2), fixed(base.heapPer1000, 2), ''],
    ['RSS per 1,000 streams (MB)', fixed(gw.rssPer1000, 2), fixed(base.rssPer1000, 2), ''],
  ]
  ROUNDS.forEach((r, i) => {
    const [g, b] = [gwTimes[i]!, bareTimes[i]!]
    rows.push([`${r.name}: first client (ms)`, fixed(g.first), fixed(b.first), ''])
    rows.push([`${r.name}: last client (ms)`, fixed(g.last), fixed(b.last), fixed(g.last / b.last, 2)])
  })
  // Judged round by round (each is one transition on every order), by the worst ratio of the three:
  // the first meets cold code and connections, the last also ends every stream.
  const ratio = Math.max(...gwTimes.map((g, i) => g.last / bareTimes[i]!.last))
  const width = Math.max(...rows.map((r) => r[0]!.length)) + 2
  console.log(`\nstatus streams: ${ORDERS} orders × ${PER_ORDER} streams, events of ≈${eventBytes} bytes`)
  console.log(
    `${'measure'.padEnd(width)}${'gateway'.padStart(10)}${'bare'.padStart(10)}${'ratio'.padStart(8)}`,
  )
  for (const [name, a, b, r] of rows)
    console.log(`${name!.padEnd(width)}${a!.padStart(10)}${b!.padStart(10)}${r!.padStart(8)}`)
  console.log(
    `upstream subscriptions: gateway ${subscriptions.gateway}, sandbox ${subscriptions.sandbox} (one per order: ${ORDERS})`,
  )
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED')
  console.log(
    `targets: ≤${TARGET_MB_PER_1000} MB RSS per 1,000 streams: ${verdict(gw.rssPer1000 <= TARGET_MB_PER_1000)} ` +
      `(${fixed(gw.rssPer1000 - base.rssPer1000, 2)} MB above bare); ` +
      `transition → last client ≤${TARGET_RATIO}× bare in every round: ${verdict(ratio <= TARGET_RATIO)} (worst ${fixed(ratio, 2)}×); ` +
      `one subscription per order: ${verdict(subscriptions.gateway === ORDERS && subscriptions.sandbox === ORDERS)}`,
  )
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
    const gateway = await start('./stream-gateway.ts', [upstream])
    const gatewayUrl = String(gateway.ready.url)
    const uuids = await createOrders(gatewayUrl, control.tokens(), ORDERS)
    const orderBytes = (await (await fetch(`${gatewayUrl}/api/v1/orders/${uuids[0]}`)).arrayBuffer())
      .byteLength
    const eventBytes = orderBytes + 120
    let client = await start('./stream-client.ts')
    const gw = await hold(
      client,
      gateway,
      uuids.map((uuid) => `${gatewayUrl}/api/orders/${uuid}/status-stream`),
    )
    const subscriptions = { gateway: gw.after.stats.upstreamSubscriptions, sandbox: control.openStreams() }
    const gwTimes: Timing[] = []
    for (const [i, r] of ROUNDS.entries()) {
      gwTimes.push(
        await round(client, i + 1, async () => {
          const t0 = wallNow()
          for (const uuid of uuids) r.move(control, uuid)
          return t0
        }),
      )
    }
    client.stop()
    gateway.stop()

    const bare = await start('./stream-bare.ts', [String(eventBytes)])
    client = await start('./stream-client.ts')
    const bareUrl = String(bare.ready.url)
    const base = await hold(
      client,
      bare,
      uuids.map((uuid) => `${bareUrl}/bare/${uuid}/status-stream`),
    )
    const bareTimes: Timing[] = []
    for (const [i, r] of ROUNDS.entries()) {
      bareTimes.push(
        await round(client, i + 1, async () => {
          const reply = await bare.ask<Message & { t0: number }>(
            { type: 'broadcast', end: r.end },
            'broadcasted',
          )
          return reply.t0
        }),
      )
    }
    report(eventBytes, gw, base, gwTimes, bareTimes, subscriptions)
  } finally {
    for (const p of peers) p.stop()
    await sandboxApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStream()
