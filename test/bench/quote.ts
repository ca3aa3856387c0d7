// The live quote benchmark (npm run bench quote): 1,000 watchers of 10 distinct quotes on one gateway
// process, beside 1,000 watchers of 10 orders' status streams on another, measured in the same run.
// Reports the upstream quote calls per second the watchers cost (the sandbox's request log over a
// measured window: one per QUOTE_REFRESH_MS per distinct quote, against one per watcher if each page
// polled), and the memory each watcher costs the gateway next to a status stream's. Processes: this
// one (orchestrator and sandbox upstream), each gateway, and the clients, as for the stream benchmark.
import type { AddressInfo } from 'node:net'
import { buildSandbox } from '../../src/sandbox/app.js'
import { BENCH_TENANT_KEY, benchPair, createOrders } from './setup.js'
import { type Message, type Peer, spawnPeer, wallNow } from './stream-ipc.js'

const QUOTES = 10
const PER_QUOTE = 100
const CONCURRENCY = 200
const REFRESH_MS = 1_000
/** How long the upstream calls are counted. */
const WINDOW_MS = 10_000
const SETTLE_MS = 2_000
const QUOTE_ROUTE = 'GET /v1/tokens/quote'

interface Memory extends Message {
  rss: number
  heapUsed: number
  quotes: Record<string, number>
}

const mb = (bytes: number) => bytes / (1024 * 1024)
const fixed = (n: number, digits = 1) => n.toFixed(digits)
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

/** Opens the streams from a client process; the server's memory growth per watcher, in KB. */
async function hold(client: Peer, server: Peer, urls: string[]) {
  const before = await server.ask<Memory>({ type: 'measure' }, 'memory')
  const opened = await client.ask<Message & { count: number; ms: number }>(
    { type: 'open', urls, perUrl: PER_QUOTE, concurrency: CONCURRENCY },
    'opened',
  )
  await settle()
  const after = await server.ask<Memory>({ type: 'measure' }, 'memory')
  return {
    opened,
    after,
    rssKbPer: (after.rss - before.rss) / 1024 / opened.count,
    heapKbPer: (after.heapUsed - before.heapUsed) / 1024 / opened.count,
  }
}

export async function benchQuote() {
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
    // The baseline: status streams, the same number of watchers of the same number of things.
    const statusGateway = await start('./stream-gateway.ts', [upstream])
    const statusUrl = String(statusGateway.ready.url)
    const uuids = await createOrders(statusUrl, control.tokens(), QUOTES)
    let client = await start('./stream-client.ts')
    const status = await hold(
      client,
      statusGateway,
      uuids.map((uuid) => `${statusUrl}/api/orders/${uuid}/status-stream`),
    )
    client.stop()
    statusGateway.stop()

    const settings = JSON.stringify({ QUOTE_REFRESH_MS: String(REFRESH_MS) })
    const quoteGateway = await start('./stream-gateway.ts', [upstream, settings])
    const quoteUrl = String(quoteGateway.ready.url)
    const { usdt, eth } = benchPair(control.tokens())
    const urls = Array.from(
      { length: QUOTES },
      (_, n) =>
        `${quoteUrl}/api/v1/tokens/quote/stream?depositTokenId=${usdt.id}&settleTokenId=${eth.id}&amount=${100 + n}&amountIsDeposit=true`,
    )
    client = await start('./stream-client.ts')
    const quotes = await hold(client, quoteGateway, urls)
    const calls = () => control.requestsTo(QUOTE_ROUTE).length
    const [c0, t0] = [calls(), wallNow()]
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS))
    const [c1, t1] = [calls(), wallNow()]
    const end = await quoteGateway.ask<Memory>({ type: 'measure' }, 'memory')
    const perSecond = ((c1 - c0) * 1000) / (t1 - t0)
    const ifEachPolled = (quotes.opened.count * 1000) / REFRESH_MS

    const rows: string[][] = [
      ['watchers held', `${quotes.opened.count}`, `${status.opened.count}`, ''],
      [
        'heap per watcher (KB)',
        fixed(quotes.heapKbPer, 2),
        fixed(status.heapKbPer, 2),
        fixed(quotes.heapKbPer / status.heapKbPer, 2),
      ],
      [
        'RSS per watcher (KB)',
        fixed(quotes.rssKbPer, 2),
        fixed(status.rssKbPer, 2),
        fixed(quotes.rssKbPer / status.rssKbPer, 2),
      ],
      ['RSS with the watchers, after GC (MB)', fixed(mb(quotes.after.rss)), fixed(mb(status.after.rss)), ''],
    ]
    const width = Math.max(...rows.map((r) => r[0]!.length)) + 2
    console.log(
      `\nlive quotes: ${QUOTES} distinct quotes × ${PER_QUOTE} watchers, QUOTE_REFRESH_MS ${REFRESH_MS}`,
    )
    console.log(
      `${'measure'.padEnd(width)}${'quote'.padStart(10)}${'status'.padStart(10)}${'ratio'.padStart(8)}`,
    )
    for (const [name, a, b, r] of rows)
      console.log(`${name!.padEnd(width)}${a!.padStart(10)}${b!.padStart(10)}${r!.padStart(8)}`)
    console.log(
      `upstream quote calls: ${c1 - c0} in ${fixed((t1 - t0) / 1000)} s = ${fixed(perSecond, 2)}/s ` +
        `(one per distinct quote per interval: ${fixed((QUOTES * 1000) / REFRESH_MS, 2)}/s; ` +
        `if each watcher polled: ${fixed(ifEachPolled)}/s, ${fixed(ifEachPolled / perSecond)}× as many)`,
    )
    console.log(
      `gateway: ${end.quotes.polled} quotes polled, ${end.quotes.openStreams} streams open, ` +
        `${end.quotes.refreshes} refreshes, ${end.quotes.refused} refused`,
    )
  } finally {
    for (const p of peers) p.stop()
    await sandboxApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchQuote()
