// The soak: a gateway in front of a sandbox under a mixed load for a while (catalog, quotes, creates
// with and without an Idempotency-Key, reads, and a few hundred status streams) while orders move to
// every terminal state and the upstream keeps dropping its streams. Then: every created order is
// read back, every stream must have seen its order's final state, and the heap after a forced GC is
// compared with the heap before the load. Used by soak.test.ts (short) and soak-main.ts (npm run soak).
import { runInNewContext } from 'node:vm'
import { Writable } from 'node:stream'
import { setFlagsFromString } from 'node:v8'
import { EventSource } from 'eventsource'
import { request } from 'undici'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { buildSandbox } from '../../src/sandbox/app.js'
import { TERMINAL_STATUSES } from '../../src/upstream/schemas.js'
import { eventually } from '../helpers/eventually.js'
import { TEST_SESSION_SECRET, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { roomyLimits } from '../helpers/limits.js'

export interface SoakOptions {
  /** How long the mixed load runs (after a warm-up of a fifth of it, at most 10 s). */
  seconds: number
  /** Most status streams open at once. */
  streams: number
  /** Concurrent request loops. */
  workers: number
  /** How often the upstream drops every status stream it holds. */
  dropStreamsEveryMs: number
}

export interface SoakFigures {
  seconds: number
  requests: number
  statuses: Record<string, number>
  codes: Record<string, number>
  /** Orders the gateway answered 201 for (replays not counted twice). */
  ordersCreated: number
  /** Orders the sandbox holds. */
  orders: number
  /** Orders per terminal status at the end. */
  finalStates: Record<string, number>
  streamsOpened: number
  streamsSawFinalState: number
  upstreamStreamDrops: number
  ordersReadBack: number
  heapBeforeMb: number
  heapAfterMb: number
  rssBeforeMb: number
  rssAfterMb: number
}

const MB = 1024 * 1024
const round = (bytes: number) => Math.round((bytes / MB) * 10) / 10

/** A full collection, so heap figures compare live objects rather than garbage not yet collected. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  gc()
}

/**
 * The heap after a full collection, the least of three looks 250 ms apart: something still in flight
 * at one look is not growth, while a leak is in every look. (On Node 26, one CI run ended 19 MB above
 * its start; one run here under load ended with 40 MB more in V8's large-object space and less old space.)
 */
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  let least: NodeJS.MemoryUsage | undefined
  for (let look = 0; look < 3; look++) {
    if (look > 0) await new Promise((resolve) => setTimeout(resolve, 250))
    collectGarbage()
    const usage = process.memoryUsage()
    if (!least || usage.heapUsed < least.heapUsed) least = usage
  }
  return least!
}

interface Stream {
  uuid: string
  /** Let go once the stream has ended: the harness's own objects are not the gateway's heap. */
  es?: EventSource
  last?: string
  done: boolean
}

export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const sandbox = buildSandbox({ tenantKey: TEST_TENANT_KEY, idleCloseMs: 3_000 })
  const sandboxUrl = await sandbox.app.listen({ host: '127.0.0.1', port: 0 })
  const { control } = sandbox
  // The log lines are written and dropped: a sink that kept them would grow with the load it measures.
  const logs = new Writable({ write: (_chunk, _encoding, done) => done() })
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      UPSTREAM_URL: sandboxUrl,
      TENANT_API_KEY: TEST_TENANT_KEY,
      SESSION_SECRET: TEST_SESSION_SECRET,
      METRICS_PORT: '0',
      UPSTREAM_TIMEOUT_MS: '5000',
      SSE_MAX_PER_IP: '100000',
      SSE_HEARTBEAT_MS: '1000',
      SSE_RETRY_MS: '200',
      SSE_DRAIN_SPREAD_MS: '0',
      RATE_LIMITS: roomyLimits(10_000_000),
    }),
    { logStream: logs, statusStreamTuning: { pollMs: 500, reopenBaseMs: 50 } },
  )
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  const p = picks(control.tokens())
  const statuses: Record<string, number> = {}
  const codes: Record<string, number> = {}
  const created = new Set<string>()
  const streams: Stream[] = []
  let requests = 0
  let drops = 0

  async function call(
    path: string,
    init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const res = await request(base + path, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    const text = await res.body.text()
    requests++
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
    if (res.statusCode >= 400) {
      const code = (JSON.parse(text) as { code?: string }).code ?? 'not a problem document'
      codes[code] = (codes[code] ?? 0) + 1
    }
    return { status: res.statusCode, text }
  }

  function follow(uuid: string) {
    const es = new EventSource(`${base}/api/orders/${uuid}/status-stream`)
    const stream: Stream = { uuid, done: false, es }
    const seen = (data: string) => {
      const status = (JSON.parse(data) as { status?: string }).status
      if (!status) return
      stream.last = status
      if (TERMINAL_STATUSES.has(status as never)) {
        stream.done = true
        es.close()
        stream.es = undefined
      }
    }
    es.addEventListener('snapshot', (e) => seen(e.data))
    es.addEventListener('orders:status-update', (e) => seen(e.data))
    streams.push(stream)
  }

  const quote = `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amountIsDeposit=true&amount=`
  let keys = 0
  const actions: Array<() => Promise<unknown>> = [
    () => call('/api/v1/tokens?symbol=USDT'),
    () => call(`/api/v1/tokens/${p.eth.id}`),
    () => call('/api/v1/chains'),
    () => call(quote + String(1 + (requests % 500))),
    () => call(`/api/v1/tokens/swap-limits?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}`),
    async () => {
      // Every third create repeats the previous key: a replay, never a second order.
      const key = requests % 3 === 0 ? `soak-${keys}` : `soak-${++keys}`
      const headers = requests % 2 === 0 ? { 'idempotency-key': key } : undefined
      const res = await call('/api/v1/orders/create', {
        method: 'POST',
        body: orderBody(p, 10 + (keys % 90)),
        headers,
      })
      if (res.status !== 201) return
      const { uuid } = JSON.parse(res.text) as { uuid: string }
      if (created.has(uuid)) return
      created.add(uuid)
      // Two followers per order, sharing its one upstream subscription.
      if (streams.filter((s) => !s.done).length < options.streams) {
        follow(uuid)
        follow(uuid)
      }
    },
    async () => {
      const uuids = [...created]
      const uuid = uuids[requests % Math.max(1, uuids.length)]
      if (uuid) await call(`/api/v1/orders/${uuid}`)
    },
  ]

  /** Moves orders along: a third completes, a third fails on the way, a third is left to expire. */
  function moveOrders() {
    for (const order of control.orders()) {
      const fate = Number.parseInt(order.uuid.slice(0, 2), 16) % 3
      if (fate === 2) continue
      if (order.status === 'AWAITING_USER_DEPOSIT') control.deposit(order.uuid)
      else if (order.status === 'AWAITING_USER_DEPOSIT_CONFIRMATIONS') {
        if (fate === 1) control.fail(order.uuid)
        else control.confirm(order.uuid)
      } else if (order.status === 'PROCESSING') control.complete(order.uuid)
    }
  }

  const load = (ms: number) => {
    const endAt = Date.now() + ms
    return Promise.all(
      Array.from({ length: options.workers }, async (_, worker) => {
        for (let i = worker; Date.now() < endAt; i++) await actions[i % actions.length]?.()
      }),
    )
  }

  const mover = setInterval(moveOrders, 300)
  const dropper = setInterval(() => {
    drops += control.closeStreams()
  }, options.dropStreamsEveryMs)
  try {
    // Warmed up first, so the code the load compiles and the pools it fills are in both figures.
    await load(Math.min(10_000, options.seconds * 200))
    collectGarbage()
    const before = process.memoryUsage()
    await load(options.seconds * 1000)
    clearInterval(mover)
    clearInterval(dropper)

    // The end: every order still moving finishes, and the unfunded ones expire.
    for (let round = 0; round < 3; round++) moveOrders()
    control.advanceTime(31 * 60_000)
    for (const order of control.orders()) {
      if (!TERMINAL_STATUSES.has(order.status as never)) control.fail(order.uuid)
    }
    const settleBy = Date.now() + 30_000
    while (streams.some((s) => !s.done) && Date.now() < settleBy) await new Promise((r) => setTimeout(r, 100))
    for (const s of streams) s.es?.close()

    let readBack = 0
    for (const uuid of created) if ((await call(`/api/v1/orders/${uuid}`)).status === 200) readBack++
    const finalStates: Record<string, number> = {}
    for (const order of control.orders()) finalStates[order.status] = (finalStates[order.status] ?? 0) + 1
    const sawFinal = streams.filter((s) => s.done && s.last === control.order(s.uuid)?.status).length

    // The sandbox's request log is the simulator's, not the gateway's: it is let go before measuring,
    // once the closed streams are let go on both sides (a stream still held is not a leak).
    control.clearRequests()
    await eventually(
      'every stream released',
      () =>
        app.sseRegistry.openOf('status') + app.sseRegistry.preparingOf('status') === 0 &&
        app.statusHub.stats().upstreamSubscriptions === 0 &&
        control.openStreams() === 0,
      30_000,
    )
    const after = await settledMemory()
    return {
      seconds: options.seconds,
      requests,
      statuses,
      codes,
      ordersCreated: created.size,
      orders: control.orders().length,
      finalStates,
      streamsOpened: streams.length,
      streamsSawFinalState: sawFinal,
      upstreamStreamDrops: drops,
      ordersReadBack: readBack,
      heapBeforeMb: round(before.heapUsed),
      heapAfterMb: round(after.heapUsed),
      rssBeforeMb: round(before.rss),
      rssAfterMb: round(after.rss),
    }
  } finally {
    clearInterval(mover)
    clearInterval(dropper)
    for (const s of streams) s.es?.close()
    await app.close()
    await sandbox.app.close()
  }
}
