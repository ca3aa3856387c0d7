import { createServer } from 'node:net'
import t from 'tap'
import { systemClock } from '../../src/clock.js'
import { startGateway } from '../helpers/gateway.js'
import { upstreamOrder } from '../helpers/upstream-order.js'
import { assertProblem } from '../helpers/problem.js'

const READ = 'GET /v1/orders/:uuid'

async function withOrder(t: Parameters<typeof startGateway>[0], env?: Record<string, string>) {
  const gw = await startGateway(t, { env })
  // Made at the upstream: one created through the gateway is watched, and the watch reads it too.
  const uuid = await upstreamOrder(gw.sandbox, gw.config.upstream.tenantKey ?? '')
  gw.sandbox.control.clearRequests()
  return { ...gw, uuid }
}

t.test('an order is read with its expanded tokens and is never cached', async (t) => {
  const { app, uuid, sandbox } = await withOrder(t)
  const res = await app.inject(`/api/v1/orders/${uuid}`)
  t.equal(res.statusCode, 200)
  t.equal(res.headers['cache-control'], 'no-store')
  t.match(res.json(), {
    uuid,
    walletAddress: String,
    depositToken: { id: Number },
    settleToken: { id: Number },
  })
  t.notOk(sandbox.control.requestsTo(READ)[0]?.headers['x-tenant-api-key'], 'no key where none is needed')
})

t.test('a malformed uuid is INVALID_ORDER_ID and never reaches the upstream', async (t) => {
  const { app, sandbox } = await withOrder(t)
  for (const bad of ['not-a-uuid', '123', '..%2F..%2Fv1%2Ftokens', 'a'.repeat(36)]) {
    const res = await app.inject(`/api/v1/orders/${bad}`)
    assertProblem(t, res, 'INVALID_ORDER_ID')
  }
  for (const url of [
    '/api/v1/orders/../tokens/quote',
    '/api/v1/orders/%2E%2E',
    '/api/v1/orders/%2e%2e%2ftokens',
  ]) {
    const res = await app.inject(url)
    t.ok([400, 404].includes(res.statusCode), `${url} goes nowhere`)
  }
  t.equal(sandbox.control.requestsTo(READ).length, 0)
})

t.test('an unknown order is ORDER_NOT_FOUND, and a burst of them never opens the breaker', async (t) => {
  const { app, uuid, sandbox } = await withOrder(t)
  for (let i = 0; i < 12; i++) {
    assertProblem(t, await app.inject(`/api/v1/orders/${crypto.randomUUID()}`), 'ORDER_NOT_FOUND')
  }
  t.equal(
    sandbox.control.requestsTo(READ).length,
    24,
    'each was asked twice: once more before saying not found, and not retried beyond',
  )
  t.equal((await app.inject(`/api/v1/orders/${uuid}`)).statusCode, 200)
})

t.test('an order read again is served as the upstream has it now, checked as it changes', async (t) => {
  const { app, uuid, sandbox } = await withOrder(t)
  const statusOf = async () => (await app.inject(`/api/v1/orders/${uuid}`)).json().status
  const before = await statusOf()
  t.equal(await statusOf(), before)
  sandbox.control.deposit(uuid)
  t.not(await statusOf(), before, 'the deposit is seen on the next read')
  sandbox.control.fault(READ, { kind: 'badBody', count: 10 })
  assertProblem(t, await app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_BAD_RESPONSE')
  sandbox.control.clearFaults()
  t.equal((await app.inject(`/api/v1/orders/${uuid}`)).statusCode, 200)
})

t.test('identical reads in flight share one upstream call', async (t) => {
  const { app, uuid, sandbox } = await withOrder(t)
  sandbox.control.fault(READ, { kind: 'delay', ms: 150 })
  const all = await Promise.all(Array.from({ length: 10 }, () => app.inject(`/api/v1/orders/${uuid}`)))
  t.same(new Set(all.map((r) => r.statusCode)), new Set([200]))
  t.equal(sandbox.control.requestsTo(READ).length, 1)
})

t.test('reads are retried on unclassified failures and succeed', async (t) => {
  const { app, uuid, sandbox } = await withOrder(t)
  sandbox.control.fault(READ, { kind: 'error500', count: 1 })
  sandbox.control.fault(READ, { kind: 'drop', count: 1 })
  const res = await app.inject(`/api/v1/orders/${uuid}`)
  t.equal(res.statusCode, 200)
  t.equal(sandbox.control.requestsTo(READ).length, 3)
})

t.test('upstream failures that outlast the retries', async (t) => {
  t.test('generic 500s are UPSTREAM_ERROR, retryable', async (t) => {
    const { app, uuid, sandbox } = await withOrder(t)
    sandbox.control.fault(READ, { kind: 'error500', count: 10 })
    assertProblem(t, await app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_ERROR', true)
    t.equal(sandbox.control.requestsTo(READ).length, 3, 'one try and two retries')
  })
  t.test('a 200 that is not JSON is UPSTREAM_BAD_RESPONSE', async (t) => {
    const { app, uuid, sandbox } = await withOrder(t)
    sandbox.control.fault(READ, { kind: 'badBody', count: 10 })
    assertProblem(t, await app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_BAD_RESPONSE')
  })
  t.test('an answer larger than the body limit is UPSTREAM_BAD_RESPONSE', async (t) => {
    const { sandbox } = await withOrder(t)
    const uuid = sandbox.control.orders()[0]?.uuid
    const gw = await startGateway(t, {
      env: { UPSTREAM_URL: sandbox.url },
      // The catalog cannot load under this limit either; a high threshold keeps the breaker out of it.
      deps: { upstreamTuning: { maxBodyBytes: 200, breakerThreshold: 1000 } },
    })
    assertProblem(t, await gw.app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_BAD_RESPONSE')
  })
  t.test('dropped connections are UPSTREAM_UNAVAILABLE', async (t) => {
    const { app, uuid, sandbox } = await withOrder(t)
    sandbox.control.fault(READ, { kind: 'drop', count: 10 })
    assertProblem(t, await app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_UNAVAILABLE')
  })
  t.test('no answer within UPSTREAM_TIMEOUT_MS is UPSTREAM_TIMEOUT', async (t) => {
    const { app, uuid, sandbox } = await withOrder(t, { UPSTREAM_TIMEOUT_MS: '300' })
    sandbox.control.fault(READ, { kind: 'hang', count: 10 })
    assertProblem(t, await app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_TIMEOUT')
  })
  t.test('an upstream 429 is UPSTREAM_UNAVAILABLE with its Retry-After', async (t) => {
    const { app, uuid, sandbox } = await withOrder(t)
    sandbox.control.fault(READ, {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '7', 'content-type': 'application/json' },
      body: '{"statusCode":429,"message":"Too Many Requests"}',
    })
    const res = await app.inject(`/api/v1/orders/${uuid}`)
    const body = assertProblem(t, res, 'UPSTREAM_UNAVAILABLE')
    t.equal(res.headers['retry-after'], '7')
    t.equal(body.retryAfter, 7)
    t.equal(sandbox.control.requestsTo(READ).length, 1, 'not retried into the limit')
  })
})

t.test(
  'an upstream that refuses connections is UPSTREAM_UNAVAILABLE, and the breaker then answers at once',
  async (t) => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number }
        s.close(() => resolve(port))
      })
    })
    const { app, sandbox } = await startGateway(t, {
      env: { UPSTREAM_URL: `http://127.0.0.1:${port}` },
      deps: { upstreamTuning: { breakerThreshold: 3, breakerOpenMs: 60_000, backoffBaseMs: 1 } },
    })
    const uuid = crypto.randomUUID()
    assertProblem(t, await app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_UNAVAILABLE')
    t.equal(app.upstream.breaker.current, 'open', 'three refusals opened it')
    const res = await app.inject(`/api/v1/orders/${uuid}`)
    assertProblem(t, res, 'UPSTREAM_UNAVAILABLE')
    t.match(res.json().detail, /paused/)
    t.equal(sandbox.control.requests.length, 0)
  },
)

t.test('after the breaker opens, a probe closes it again once the upstream recovers', async (t) => {
  let now = 1_000_000
  const { uuid, sandbox } = await withOrder(t)
  const gw = await startGateway(t, {
    env: { UPSTREAM_URL: sandbox.url },
    deps: {
      clock: { ...systemClock, now: () => now },
      upstreamTuning: { breakerThreshold: 2, breakerOpenMs: 5_000, retries: 0 },
    },
  })
  sandbox.control.fault(READ, { kind: 'error500', count: 2 })
  assertProblem(t, await gw.app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_ERROR')
  assertProblem(t, await gw.app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_ERROR')
  const before = sandbox.control.requestsTo(READ).length
  assertProblem(t, await gw.app.inject(`/api/v1/orders/${uuid}`), 'UPSTREAM_UNAVAILABLE')
  t.equal(sandbox.control.requestsTo(READ).length, before, 'open: no call')
  now += 5_001
  t.equal((await gw.app.inject(`/api/v1/orders/${uuid}`)).statusCode, 200, 'the probe went through')
  t.equal(gw.app.upstream.breaker.current, 'closed')
})
