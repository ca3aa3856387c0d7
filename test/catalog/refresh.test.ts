import type { FastifyInstance } from 'fastify'
import { eventually } from '../helpers/eventually.js'
import t from 'tap'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { startSandbox } from '../helpers/sandbox.js'
import { fakeClock } from '../helpers/clock.js'
import { upstreamCatalog } from './support.js'

const TOKENS = '/api/v1/tokens'
const TTL_MS = 300_000
const CATALOG_CALLS = 'GET /v1/tokens'

/** The catalog's own readiness member (failing it makes the instance not ready), not the degraded one. */
const ownProblem = (app: FastifyInstance) => app.readiness.state().failing.catalog

t.test(
  'past its TTL the old copy is served (STALE) while one background load brings the new one',
  async (t) => {
    const clock = fakeClock()
    const { app, sandbox } = await startGateway(t, { deps: { clock } })
    const before = await app.inject(TOKENS)
    t.equal(before.headers['x-cache-status'], 'HIT')
    const added = sandbox.control.addToken({ name: 'Brand New Coin', symbol: 'BNC', blockchainId: 2 })
    sandbox.control.clearRequests()

    clock.advance(TTL_MS - 1)
    const fresh = await app.inject(TOKENS)
    t.equal(fresh.headers['x-cache-status'], 'HIT', 'within the TTL: served from memory')
    t.equal(fresh.headers.etag, before.headers.etag)
    t.equal(sandbox.control.requests.length, 0, 'no upstream call within the TTL')

    sandbox.control.fault(CATALOG_CALLS, { kind: 'delay', ms: 300 })
    clock.advance(2)
    const stale = await Promise.all([
      app.inject(TOKENS),
      app.inject(TOKENS),
      app.inject(`${TOKENS}?symbol=BNC`),
    ])
    for (const res of stale)
      t.equal(res.headers['x-cache-status'], 'STALE', 'answered at once from the old copy')
    t.ok(stale[0]?.rawPayload.equals(before.rawPayload), 'the old bytes')
    t.same(stale[2]?.json(), [], 'the old copy has no BNC')

    await eventually('the background load', () => app.catalog.stats().refreshes === 2)
    t.equal(sandbox.control.requestsTo(CATALOG_CALLS).length, 1, 'one upstream call for three stale reads')
    const after = await app.inject({ url: TOKENS, headers: { 'if-none-match': String(before.headers.etag) } })
    t.equal(after.statusCode, 200, 'the old ETag no longer matches')
    t.equal(after.headers['x-cache-status'], 'HIT')
    t.not(after.headers.etag, before.headers.etag)
    const { raw } = await upstreamCatalog(sandbox.url)
    t.ok(after.rawPayload.equals(raw), 'the new upstream bytes')
    const bnc = await app.inject(`${TOKENS}?symbol=bnc`)
    t.same(
      bnc.json().map((tk: { id: number }) => tk.id),
      [added.id],
    )
    t.equal(app.catalog.stats().staleServed, 3)
    t.equal(app.catalog.stats().compressions, 4, 'the new version compressed once, in br and gzip')
  },
)

t.test('an unchanged catalog after the TTL is reloaded without compressing it again', async (t) => {
  const clock = fakeClock()
  const { app } = await startGateway(t, { deps: { clock } })
  const before = await app.inject(TOKENS)
  clock.advance(TTL_MS + 1)
  await app.inject(TOKENS)
  await eventually('the background load', () => app.catalog.stats().refreshes === 2)
  const after = await app.inject(TOKENS)
  t.equal(after.headers['x-cache-status'], 'HIT')
  t.equal(after.headers.etag, before.headers.etag, 'same bytes, same ETag')
  t.equal(app.catalog.stats().compressions, 2)
  t.equal(app.catalog.stats().ageMs, 0, 'the age counts from the reload')
})

t.test('50 concurrent requests with no catalog in memory make one upstream call', async (t) => {
  const upstream = await startSandbox(t, { tenantKey: TEST_TENANT_KEY })
  // The start-up load fails (three attempts: the upstream client retries a generic 500 twice), and
  // the reload timer is far off: the gateway starts with nothing in memory.
  upstream.control.fault(CATALOG_CALLS, { kind: 'error500', count: 3 })
  // Then a slow answer, so all 50 requests arrive while that one load is in flight.
  upstream.control.fault(CATALOG_CALLS, { kind: 'delay', ms: 1500 })
  const { app, url } = await startGateway(t, {
    env: { UPSTREAM_URL: upstream.url },
    deps: { catalogTuning: { retryBaseMs: 600_000 } },
    listen: true,
  })
  t.equal(upstream.control.requestsTo(CATALOG_CALLS).length, 3, 'the start-up load was tried')
  t.type(ownProblem(app), 'string', 'not ready without a catalog')
  upstream.control.clearRequests()

  const responses = await Promise.all(
    Array.from({ length: 50 }, () =>
      fetch(`${url}${TOKENS}`, { headers: { 'accept-encoding': 'identity' } }),
    ),
  )
  const bodies = await Promise.all(responses.map(async (r) => Buffer.from(await r.arrayBuffer())))
  t.same(
    responses.map((r) => r.status),
    Array(50).fill(200),
  )
  t.same(
    responses.map((r) => r.headers.get('x-cache-status')),
    Array(50).fill('MISS'),
    'every one waited for the load',
  )
  t.equal(upstream.control.requestsTo(CATALOG_CALLS).length, 1, 'one upstream call (the sandbox request log)')
  const { raw } = await upstreamCatalog(upstream.url)
  t.ok(
    bodies.every((b) => b.equals(raw)),
    'all 50 got the upstream bytes',
  )
  const { failing, degraded } = app.readiness.state()
  t.same([failing.catalog, degraded.catalog], [undefined, undefined], 'ready once loaded, and not degraded')
  t.equal(app.catalog.stats().misses, 50)
})
