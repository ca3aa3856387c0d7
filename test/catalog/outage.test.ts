import { eventually } from '../helpers/eventually.js'
import t from 'tap'
import { buildSandbox } from '../../src/sandbox/app.js'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'
import { fakeClock } from '../helpers/clock.js'
import { refusingUrl, resettingUpstream, upstreamCatalog } from './support.js'

const TOKENS = '/api/v1/tokens'
const TTL_MS = 300_000
const MAX_STALE_MS = 3_600_000
/** A dead upstream should fail fast and not open the breaker in these tests. */
const upstreamTuning = { retries: 0, breakerThreshold: 1_000 }

t.test('with the upstream refusing connections, the last good copy is served as STALE', async (t) => {
  const clock = fakeClock()
  const { app, sandbox } = await startGateway(t, {
    env: { CATALOG_MAX_STALE_MS: String(MAX_STALE_MS) },
    deps: { clock, upstreamTuning, catalogTuning: { retryBaseMs: 600_000 } },
  })
  const p = picks(sandbox.control.tokens())
  const before = await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'br' } })
  await sandbox.app.close()
  await t.rejects(fetch(`${sandbox.url}/v1/tokens`), 'the sandbox refuses connections')

  clock.advance(TTL_MS + 1)
  const stale = await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'br' } })
  t.equal(stale.statusCode, 200)
  t.equal(stale.headers['x-cache-status'], 'STALE', 'the response says it is stale')
  t.ok(stale.rawPayload.equals(before.rawPayload), 'the last good bytes')
  t.equal(stale.headers.etag, before.headers.etag)
  await eventually('the failed background load', () => app.catalog.stats().refreshFailures === 1)
  const revalidated = await app.inject({
    url: TOKENS,
    headers: { 'accept-encoding': 'br', 'if-none-match': String(before.headers.etag) },
  })
  t.equal(revalidated.statusCode, 304)
  t.equal(revalidated.headers['x-cache-status'], 'STALE')
  const chains = await app.inject('/api/v1/chains')
  t.equal(chains.headers['x-cache-status'], 'STALE')
  t.same(app.readiness.state().failing, {}, 'a servable copy keeps the catalog ready')
  t.equal(app.catalog.stats().refreshFailures, 1, 'no reload per request while backing off')

  const known = await app.inject(
    `/api/v1/tokens/quote?depositTokenId=${p.inactive.id}&settleTokenId=${p.eth.id}&amount=1&amountIsDeposit=true`,
  )
  assertProblem(t, known, 'PAIR_UNAVAILABLE')

  clock.advance(MAX_STALE_MS)
  const tooOld = await app.inject(TOKENS)
  assertProblem(t, tooOld, 'UPSTREAM_UNAVAILABLE', true)
  // Every instance's copy expires in the same outage: degraded, not unready (the pool stays whole).
  const ready = await app.inject('/readyz')
  t.equal(ready.statusCode, 200)
  t.match(ready.json().degraded, { catalog: /older than/ }, 'readiness reports the expired copy as degraded')
})

t.test(
  'a cold start with no upstream: the gateway starts, answers 503, and loads in the background',
  async (t) => {
    const dead = await refusingUrl()
    const { app, logs } = await startGateway(t, {
      env: { UPSTREAM_URL: dead },
      deps: { upstreamTuning, catalogTuning: { retryBaseMs: 20, retryCapMs: 100 } },
    })
    for (const path of [TOKENS, `${TOKENS}/1`, '/api/v1/chains', `${TOKENS}?tradable=true`]) {
      const body = assertProblem(t, await app.inject(path), 'UPSTREAM_UNAVAILABLE', true)
      t.notMatch(JSON.stringify(body), /ECONNREFUSED|127\.0\.0\.1/, 'no transport details leak')
    }
    const quote = await app.inject(
      '/api/v1/tokens/quote?depositTokenId=1&settleTokenId=2&amount=1&amountIsDeposit=true',
    )
    assertProblem(t, quote, 'UPSTREAM_UNAVAILABLE', true)
    const ready = await app.inject('/readyz')
    t.equal(ready.statusCode, 503, 'not ready before the first load')
    t.match(ready.json().checks, { catalog: /not been loaded/ })

    const failures = logs.lines().filter((l) => l.msg === 'catalog load failed')
    t.ok(failures.length >= 1, 'failed loads are logged')
    t.match(failures[0], { level: 40, catalog: { code: 'UPSTREAM_UNAVAILABLE' } })
    t.notMatch(logs.text(), TEST_TENANT_KEY, 'no tenant key in the logs')

    const port = Number(new URL(dead).port)
    const { app: upstream, control } = buildSandbox({ tenantKey: TEST_TENANT_KEY })
    t.teardown(() => upstream.close())
    await upstream.listen({ host: '127.0.0.1', port })
    await eventually(
      'the background load, with no client traffic',
      () => app.readiness.state().failing.catalog === undefined,
    )
    t.ok(control.requestsTo('GET /v1/tokens').length >= 1)
    const res = await app.inject(TOKENS)
    t.equal(res.statusCode, 200)
    t.equal(res.headers['x-cache-status'], 'HIT')
    const { raw } = await upstreamCatalog(`http://127.0.0.1:${port}`)
    t.ok(res.rawPayload.equals(raw))
  },
)

t.test('reload attempts back off, and stop when the gateway closes', async (t) => {
  const upstream = await resettingUpstream(t)
  const clock = fakeClock({ running: true })
  const { app } = await startGateway(t, {
    env: { UPSTREAM_URL: upstream.url },
    deps: { clock, upstreamTuning, catalogTuning: { retryBaseMs: 10, retryCapMs: 40 } },
  })
  await eventually('a few background attempts', () => upstream.connections() >= 4)
  t.ok(app.catalog.stats().refreshFailures >= 4)
  await app.close()
  t.equal(clock.pending(), 0, 'no attempt after close: no timer left behind')
})
