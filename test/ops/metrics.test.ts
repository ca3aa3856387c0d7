import t from 'tap'
import { startGateway, TEST_SESSION_SECRET, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'

/** The value of one sample line, by metric name and a label subset. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').pop())
  }
  return undefined
}

t.test(
  '/metrics on the internal port reports traffic by route template, without ids or secrets',
  async (t) => {
    const gw = await startGateway(t, {
      listen: true,
      deps: { metricsPort: 0 },
      env: { RATE_LIMITS: '{"orders":{"max":3,"timeWindow":"1 minute"}}', CLIENT_IP_HEADER: 'fly-client-ip' },
    })
    const metricsUrl = await gw.app.metricsUrl()
    t.ok(metricsUrl, 'the metrics server listens')
    const p = picks(gw.sandbox.control.tokens())
    const api = (path: string, init?: RequestInit) => fetch(`${gw.url}/api${path}`, init)

    t.equal((await api('/v1/tokens')).status, 200)
    const create = (key: string) =>
      api('/v1/orders/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(orderBody(p)),
      })
    const order = (await (await create('metrics-key-1')).json()) as { uuid: string }
    t.equal((await create('metrics-key-1')).headers.get('idempotent-replayed'), 'true')
    t.equal((await api(`/v1/orders/${order.uuid}`)).status, 200)
    gw.sandbox.control.fault('GET /v1/orders/:uuid', { kind: 'error500', count: 3 })
    t.equal((await api(`/v1/orders/${order.uuid}`)).status, 502)
    const limited = { headers: { 'fly-client-ip': '192.0.2.44' } }
    for (let i = 0; i < 3; i++) await api('/v1/orders/not-a-uuid', limited)
    assertProblem(
      t,
      await (async () => {
        const res = await api('/v1/orders/not-a-uuid', limited)
        return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
      })(),
      'RATE_LIMITED',
    )

    const stream = new AbortController()
    const sse = await api(`/orders/${order.uuid}/status-stream`, { signal: stream.signal })
    const reader = sse.body!.getReader()
    await reader.read()

    const res = await fetch(metricsUrl!)
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
    const text = await res.text()
    stream.abort()
    await reader.cancel().catch(() => {})

    const orderRoute = '/api/v1/orders/:uuid'
    t.equal(
      sample(text, 'gateway_http_request_duration_seconds_count', {
        method: 'GET',
        route: orderRoute,
        status: '200',
      }),
      1,
    )
    t.equal(
      sample(text, 'gateway_http_request_duration_seconds_count', { route: orderRoute, status: '502' }),
      1,
    )
    t.equal(
      sample(text, 'gateway_http_request_duration_seconds_count', {
        route: '/api/v1/orders/create',
        status: '201',
      }),
      2,
    )
    t.equal(
      sample(text, 'gateway_http_request_duration_seconds_count', { route: '/api/v1/tokens', status: '200' }),
      1,
    )
    t.ok(
      sample(text, 'gateway_http_request_duration_seconds_bucket', { route: '/api/v1/tokens', le: '+Inf' }),
    )
    t.equal(sample(text, 'gateway_http_problems_total', { route: orderRoute, code: 'UPSTREAM_ERROR' }), 1)
    t.equal(sample(text, 'gateway_http_problems_total', { route: orderRoute, code: 'INVALID_ORDER_ID' }), 3)
    t.equal(sample(text, 'gateway_rate_limited_total', { group: 'orders' }), 1)
    t.equal(sample(text, 'gateway_idempotent_replays_total'), 1)
    t.equal(
      sample(text, 'gateway_upstream_call_duration_seconds_count', { operation: 'create', outcome: 'ok' }),
      1,
    )
    t.equal(
      sample(text, 'gateway_upstream_call_errors_total', { operation: 'orderRead', code: 'UPSTREAM_ERROR' }),
      3,
      'each failed attempt (the first and its retries) is counted',
    )
    t.equal(sample(text, 'gateway_upstream_breaker_state', { state: 'closed' }), 1)
    t.ok((sample(text, 'gateway_catalog_tokens') ?? 0) > 100, 'catalog size')
    t.ok((sample(text, 'gateway_catalog_age_seconds') ?? -1) >= 0, 'catalog age')
    t.ok((sample(text, 'gateway_catalog_refreshes_total') ?? 0) >= 1)
    t.equal(sample(text, 'gateway_catalog_cache_misses_total') !== undefined, true)
    t.equal(sample(text, 'gateway_streams_open'), 1, 'the open stream')
    t.equal(sample(text, 'gateway_upstream_subscriptions'), 1, 'its upstream subscription')
    t.equal(sample(text, 'gateway_upstream_subscriptions_polling'), 0, 'streaming, not polling')
    t.ok(sample(text, 'process_resident_memory_bytes'), 'process metrics')
    t.equal(sample(text, 'gateway_redis_up'), undefined, 'no Redis gauge without REDIS_URL')

    t.notMatch(text, order.uuid, 'no order id')
    t.notMatch(text, order.uuid.slice(0, 8), 'not even a shortened one')
    t.notMatch(text, /not-a-uuid/, 'no raw URL')
    t.notMatch(text, TEST_TENANT_KEY, 'no tenant key')
    t.notMatch(text, TEST_SESSION_SECRET, 'no session secret')
    t.notMatch(text, /192\.0\.2\.44|metrics-key-1/, 'no client address, no idempotency key')

    const unknown = await fetch(metricsUrl!.replace('/metrics', '/other'))
    t.equal(unknown.status, 404)
  },
)

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
