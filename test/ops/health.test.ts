// Readiness fails only for what is this instance's own (no catalog yet, a tenant key refused since
// start-up, a shutdown: test/ops/shutdown-phases.test.ts), and shows the trouble of shared
// dependencies (the upstream silent, refusing connections or failing; a key that stopped working)
// as degraded members of a 200, in metrics, and in one log line per change.
import t from 'tap'
import { systemClock } from '../../src/clock.js'
import { startGateway } from '../helpers/gateway.js'
import { picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'
import { metricValue, quoteUrl } from '../helpers/quota.js'

/** The upstream's failures open the breaker after two, with no retries to wait for. */
const upstreamTuning = { retries: 0, breakerThreshold: 2, breakerOpenMs: 60_000 }

async function readyz(app: Awaited<ReturnType<typeof startGateway>>['app']) {
  const res = await app.inject({ url: '/readyz' })
  return { status: res.statusCode, body: res.json(), cacheControl: res.headers['cache-control'] }
}

const readinessLines = (gw: Awaited<ReturnType<typeof startGateway>>, pattern: RegExp) =>
  gw.logs.lines().filter((l) => pattern.test(String(l.msg)))

t.test(
  'an idle gateway stays ready; an upstream silent for long is a degraded member, still 200',
  async (t) => {
    let now = Date.now()
    const gw = await startGateway(t, {
      deps: { clock: { ...systemClock, now: () => now } },
      env: { CATALOG_TTL_MS: '300000' },
    })
    t.equal((await gw.app.inject({ url: '/api/v1/tokens' })).statusCode, 200)
    t.same((await readyz(gw.app)).body, { status: 'ready' })
    now += 4 * 60_000
    t.same((await readyz(gw.app)).body, { status: 'ready' }, 'four idle minutes later: nothing to report')

    now += 10 * 60_000
    const silent = await readyz(gw.app)
    t.equal(silent.status, 200, 'the upstream every instance shares never fails readiness')
    t.match(silent.body, { status: 'ready', degraded: { upstream: /no answer in the last 600 s/ } })
    t.equal(silent.cacheControl, 'no-store')
    const health = await gw.app.inject({ url: '/healthz' })
    t.same(health.json(), { status: 'ok' })
  },
)

t.test(
  'READINESS_UPSTREAM_WINDOW_MS sets how long a silent upstream goes unreported, past two reloads',
  async (t) => {
    let now = Date.now()
    const gw = await startGateway(t, {
      deps: { clock: { ...systemClock, now: () => now } },
      env: { CATALOG_TTL_MS: '300000', READINESS_UPSTREAM_WINDOW_MS: '900000' },
    })
    t.equal((await gw.app.inject({ url: '/api/v1/tokens' })).statusCode, 200)
    now += 16 * 60_000
    const silent = await readyz(gw.app)
    t.equal(silent.status, 200)
    t.match(silent.body, { status: 'ready', degraded: { upstream: /no answer in the last 900 s/ } })
  },
)

t.test(
  'the upstream refusing connections: 200 with the upstream degraded, the catalog from memory, problem documents',
  async (t) => {
    const gw = await startGateway(t, { deps: { upstreamTuning } })
    await gw.sandbox.app.close()
    for (let i = 0; i < 3; i++) {
      const read = await gw.app.inject({ url: `/api/v1/orders/${crypto.randomUUID()}` })
      assertProblem(t, read, 'UPSTREAM_UNAVAILABLE')
    }
    const ready = await readyz(gw.app)
    t.equal(ready.status, 200, 'still in the pool')
    t.match(ready.body, { status: 'ready', degraded: { upstream: /circuit breaker/ } })
    t.notOk(ready.body.degraded.catalog, 'the catalog copy is still fresh')
    t.equal(
      (await gw.app.inject({ url: '/api/v1/tokens' })).statusCode,
      200,
      'the catalog is served from memory',
    )

    t.equal(await metricValue(gw.app, 'gateway_ready'), 1)
    const text = await gw.app.metrics.registry.metrics()
    t.match(text, /gateway_readiness_problem\{member="upstream",state="degraded"\} 1/)
    await readyz(gw.app)
    t.equal(readinessLines(gw, /^readiness: upstream degraded/).length, 1, 'one log line for the change')
  },
)

t.test(
  'upstream 5xx: the breaker opens and the upstream shows as degraded; recovery clears it',
  async (t) => {
    let now = Date.now()
    const gw = await startGateway(t, { deps: { upstreamTuning, clock: { ...systemClock, now: () => now } } })
    gw.sandbox.control.fault('GET /v1/orders/:uuid', {
      kind: 'status',
      status: 502,
      body: '<html>bad gateway</html>',
      count: 2,
    })
    for (let i = 0; i < 2; i++) {
      assertProblem(
        t,
        await gw.app.inject({ url: `/api/v1/orders/${crypto.randomUUID()}` }),
        'UPSTREAM_ERROR',
      )
    }
    const failing = await readyz(gw.app)
    t.equal(failing.status, 200)
    t.match(failing.body.degraded, { upstream: /circuit breaker/ })

    now += 60_000
    const probe = await gw.app.inject({ url: `/api/v1/orders/${crypto.randomUUID()}` })
    assertProblem(t, probe, 'ORDER_NOT_FOUND')
    t.same((await readyz(gw.app)).body, { status: 'ready' }, 'the upstream answered again: nothing degraded')
    t.equal(readinessLines(gw, /^readiness: upstream no longer degraded/).length, 1)
  },
)

t.test(
  'a tenant key the upstream refuses at start-up: not ready, one error line naming TENANT_API_KEY, a metric',
  async (t) => {
    const gw = await startGateway(t, {
      sandbox: { tenantKey: 'the-key-the-upstream-really-has-0123' },
      deps: { checkTenantKeyAtStart: true },
    })
    const ready = await gw.app.inject({ url: '/readyz' })
    const problem = assertProblem(t, ready, 'SERVICE_UNAVAILABLE')
    t.match(problem.checks, { tenantKey: /refused TENANT_API_KEY/ })
    t.equal(
      gw.sandbox.control.requestsTo('GET /v1/tokens/swap-limits').length,
      1,
      'checked once, at start-up',
    )

    const quote = await gw.app.inject({ url: quoteUrl(gw.sandbox.control.tokens(), 100) })
    assertProblem(t, quote, 'UPSTREAM_AUTH_FAILED')
    const lines = gw.logs.lines().filter((l) => l.level === 50 && /TENANT_API_KEY/.test(String(l.msg)))
    t.equal(lines.length, 1, 'one error line naming the variable, not one per refusal')
    t.equal(
      await metricValue(gw.app, 'gateway_upstream_tenant_key_refused_total'),
      2,
      'every refusal counted',
    )
    t.equal(await metricValue(gw.app, 'gateway_ready'), 0)
    t.notMatch(gw.logs.text(), 'sandbox-tenant-key-for-tests', 'the key itself is never logged')
  },
)

t.test('a tenant key accepted at start-up that stops working: degraded, still 200', async (t) => {
  const gw = await startGateway(t, { deps: { checkTenantKeyAtStart: true } })
  t.same((await readyz(gw.app)).body, { status: 'ready' }, 'the start-up check passed')
  t.equal(gw.sandbox.control.requestsTo('GET /v1/tokens/swap-limits').length, 1)

  const refusal = JSON.stringify({ statusCode: 401, message: 'Valid access token required.' })
  gw.sandbox.control.fault('GET /v1/tokens/quote', { kind: 'status', status: 401, body: refusal })
  const p = picks(gw.sandbox.control.tokens())
  const quote = `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=1&amountIsDeposit=true`
  assertProblem(t, await gw.app.inject({ url: quote }), 'UPSTREAM_AUTH_FAILED')
  const ready = await readyz(gw.app)
  t.equal(ready.status, 200, 'every instance sees the same: the pool stays whole')
  t.match(ready.body.degraded, { tenantKey: /it accepted it before/ })
  t.ok(gw.logs.lines().some((l) => l.level === 50 && /TENANT_API_KEY/.test(String(l.msg))))

  t.equal((await gw.app.inject({ url: quote })).statusCode, 200, 'accepted again')
  t.same((await readyz(gw.app)).body, { status: 'ready' })
})
