import t from 'tap'
import { fakeClock } from '../helpers/clock.js'
import { startGateway, TEST_SESSION_SECRET, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'
import { readRaw } from '../helpers/sse.js'

/** The value of one sample line, by metric name and a label subset. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').pop())
  }
  return undefined
}

// One gateway sees a known mix of traffic: a catalog read, a create and its replay, an order read,
// one whose upstream read fails every attempt, invalid ids up to the rate limit, and a status stream
// and a live quote left open. It is scraped once, and each test below reads what an operator would
// look at, with the exact figures that traffic makes. The clock is injected (the catalog's age is
// exact), and live quotes refresh too rarely to add a call while the test runs.
t.test('/metrics on the internal port, after a known mix of traffic', async (t) => {
  const clock = fakeClock()
  const gw = await startGateway(t, {
    listen: true,
    // No backoff between the failing read's attempts: the clock stands still.
    deps: { metricsPort: 0, clock, upstreamTuning: { backoffBaseMs: 0 } },
    env: {
      RATE_LIMITS: '{"orders":{"max":3,"timeWindow":"1 minute"}}',
      CLIENT_IP_HEADER: 'fly-client-ip',
      QUOTE_REFRESH_MS: '600000',
      QUOTE_STREAM_MAX_SILENCE_MS: '600000',
    },
  })
  const metricsUrl = await gw.app.metricsUrl()
  const p = picks(gw.sandbox.control.tokens())
  const api = (path: string, init?: RequestInit) => fetch(`${gw.url}/api${path}`, init)
  const create = (key: string) =>
    api('/v1/orders/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(orderBody(p)),
    })

  t.equal((await api('/v1/tokens')).status, 200)
  const order = (await (await create('metrics-key-1')).json()) as { uuid: string }
  t.equal((await create('metrics-key-1')).headers.get('idempotent-replayed'), 'true')
  t.equal((await api(`/v1/orders/${order.uuid}`)).status, 200)
  gw.sandbox.control.fault('GET /v1/orders/:uuid', { kind: 'error500', count: 3 })
  t.equal((await api(`/v1/orders/${order.uuid}`)).status, 502)
  const limited = { headers: { 'fly-client-ip': '192.0.2.44' } }
  for (let i = 0; i < 3; i++) t.equal((await api('/v1/orders/not-a-uuid', limited)).status, 400)
  const refused = await api('/v1/orders/not-a-uuid', limited)
  assertProblem(
    t,
    { statusCode: refused.status, headers: Object.fromEntries(refused.headers), body: await refused.text() },
    'RATE_LIMITED',
  )
  const status = await readRaw(`${gw.url}/api/orders/${order.uuid}/status-stream`)
  await status.first()
  const quote = new URLSearchParams({
    depositTokenId: String(p.usdtEth.id),
    settleTokenId: String(p.eth.id),
    amount: '100',
    amountIsDeposit: 'true',
  })
  const live = await readRaw(`${gw.url}/api/v1/tokens/quote/stream?${quote}`)
  await live.first()
  clock.advance(42_000)

  t.ok(metricsUrl, 'the metrics server listens')
  const res = await fetch(metricsUrl!)
  t.equal(res.status, 200)
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
  const text = await res.text()
  status.close()
  live.close()

  t.test('requests, their latency and their problems, by route template and status', async (t) => {
    const count = (labels: Record<string, string>) =>
      sample(text, 'gateway_http_request_duration_seconds_count', labels)
    const orderRoute = '/api/v1/orders/:uuid'
    t.equal(count({ method: 'GET', route: orderRoute, status: '200' }), 1)
    t.equal(count({ route: orderRoute, status: '502' }), 1)
    t.equal(count({ route: orderRoute, status: '400' }), 3)
    t.equal(count({ route: orderRoute, status: '429' }), 1)
    t.equal(count({ route: '/api/v1/orders/create', status: '201' }), 2)
    t.equal(count({ route: '/api/v1/tokens', status: '200' }), 1)
    t.equal(
      sample(text, 'gateway_http_request_duration_seconds_bucket', { route: '/api/v1/tokens', le: '+Inf' }),
      1,
      'its latency histogram holds it',
    )
    t.equal(sample(text, 'gateway_http_problems_total', { route: orderRoute, code: 'UPSTREAM_ERROR' }), 1)
    t.equal(sample(text, 'gateway_http_problems_total', { route: orderRoute, code: 'INVALID_ORDER_ID' }), 3)
    t.equal(sample(text, 'gateway_rate_limited_total', { group: 'orders' }), 1)
    t.equal(sample(text, 'gateway_idempotent_replays_total'), 1)
  })

  t.test('upstream calls by operation and outcome, failed attempts by code, the breaker', async (t) => {
    t.equal(
      sample(text, 'gateway_upstream_call_duration_seconds_count', { operation: 'create', outcome: 'ok' }),
      1,
      'the replay made no call',
    )
    t.equal(
      sample(text, 'gateway_upstream_call_errors_total', { operation: 'orderRead', code: 'UPSTREAM_ERROR' }),
      3,
      'each failed attempt (the first and its retries) is counted',
    )
    t.equal(sample(text, 'gateway_upstream_breaker_state', { state: 'closed' }), 1)
    t.equal(sample(text, 'gateway_upstream_breaker_state', { state: 'open' }), 0)
  })

  t.test('the catalog: its size, its age, its loads and how reads were served', async (t) => {
    t.equal(
      sample(text, 'gateway_catalog_tokens'),
      gw.sandbox.control.tokens().length,
      'every upstream token',
    )
    t.equal(sample(text, 'gateway_catalog_age_seconds'), 42, 'loaded at start, 42 s ago by the clock')
    t.equal(sample(text, 'gateway_catalog_refreshes_total'), 1, 'the start-up load')
    t.equal(sample(text, 'gateway_catalog_refresh_failures_total'), 0)
    t.equal(sample(text, 'gateway_catalog_cache_misses_total'), 0, 'no read waited for a load')
  })

  t.test('status streams and live quotes left open, and what they cost upstream', async (t) => {
    t.equal(sample(text, 'gateway_streams_open'), 1, 'the open stream')
    t.equal(sample(text, 'gateway_upstream_subscriptions'), 1, 'its upstream subscription')
    t.equal(sample(text, 'gateway_upstream_subscriptions_polling'), 0, 'streaming, not polling')
    t.equal(sample(text, 'gateway_stream_events_sent_total'), 1, 'its snapshot')
    t.equal(sample(text, 'gateway_quote_streams_open'), 1, 'the live quote')
    t.equal(sample(text, 'gateway_quote_polled'), 1)
    t.equal(sample(text, 'gateway_quote_refreshes_total'), 1, 'its first quote')
    t.equal(sample(text, 'gateway_quote_events_sent_total'), 1)
  })

  t.test('readiness, what the instance runs, and its process', async (t) => {
    t.equal(sample(text, 'gateway_ready'), 1)
    t.equal(sample(text, 'gateway_readiness_problem'), undefined, 'no member in trouble')
    t.equal(sample(text, 'gateway_build_info', { node: process.versions.node }), 1, 'its version and Node.js')
    t.ok(sample(text, 'process_resident_memory_bytes'), 'process metrics')
    t.equal(sample(text, 'gateway_redis_up'), undefined, 'no Redis gauge without REDIS_URL')
  })

  t.test('no label holds an id, an address, a key or a secret', async (t) => {
    t.notMatch(text, order.uuid, 'no order id')
    t.notMatch(text, order.uuid.slice(0, 8), 'not even a shortened one')
    t.notMatch(text, /not-a-uuid/, 'no raw URL')
    t.notMatch(text, TEST_TENANT_KEY, 'no tenant key')
    t.notMatch(text, TEST_SESSION_SECRET, 'no session secret')
    t.notMatch(text, /192\.0\.2\.44|metrics-key-1/, 'no client address, no idempotency key')
  })

  t.test('the metrics port serves /metrics only', async (t) => {
    const unknown = await fetch(metricsUrl!.replace('/metrics', '/other'))
    t.equal(unknown.status, 404)
  })
})

t.test('the public port answers /metrics with 404 NOT_FOUND', async (t) => {
  const gw = await startGateway(t, { deps: { metricsPort: 0 } })
  assertProblem(t, await gw.app.inject({ url: '/metrics' }), 'NOT_FOUND')
})

t.test('METRICS_PORT=0 turns the metrics server off', async (t) => {
  const gw = await startGateway(t, { listen: true })
  t.equal(gw.config.observability.port, undefined)
  t.equal(await gw.app.metricsUrl(), undefined)
})

t.test('a busy metrics port is logged and the API keeps serving', async (t) => {
  const first = await startGateway(t, { listen: true, deps: { metricsPort: 0 } })
  const port = Number(new URL((await first.app.metricsUrl())!).port)
  const second = await startGateway(t, { listen: true, deps: { metricsPort: port } })
  t.equal(await second.app.metricsUrl(), undefined)
  t.equal((await fetch(`${second.url}/healthz`)).status, 200)
  t.ok(second.logs.lines().some((l) => l.level === 50 && /metrics port/.test(String(l.msg))))
})

t.test(
  'METRICS_HOST=127.0.0.1 keeps the internal port on the machine; it follows HOST otherwise',
  async (t) => {
    const loopback = await startGateway(t, {
      listen: true,
      env: { HOST: '0.0.0.0', METRICS_HOST: '127.0.0.1' },
      deps: { metricsPort: 0 },
    })
    t.equal(new URL((await loopback.app.metricsUrl())!).hostname, '127.0.0.1', 'bound to loopback only')
    t.equal((await fetch((await loopback.app.metricsUrl())!)).status, 200, 'and serves /metrics there')
    const followsHost = await startGateway(t, {
      listen: true,
      env: { HOST: '0.0.0.0' },
      deps: { metricsPort: 0 },
    })
    t.equal(new URL((await followsHost.app.metricsUrl())!).hostname, '0.0.0.0', 'without it: on HOST')
  },
)
