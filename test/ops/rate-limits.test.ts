import t, { type Test } from 'tap'
import { loadConfig } from '../../src/config.js'
import { DEFAULT_RATE_LIMITS, type RateLimitGroup } from '../../src/edge/rate-limit-rules.js'
import { startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'

/** Two routes per group where the contract has two, so the tests can show one counter per group. */
const ROUTES: Record<RateLimitGroup, Array<{ method: 'GET' | 'POST'; url: string; payload?: object }>> = {
  catalog: [
    { method: 'GET', url: '/api/v1/tokens' },
    { method: 'GET', url: '/api/v1/chains' },
  ],
  pricing: [
    { method: 'GET', url: '/api/v1/tokens/quote?depositTokenId=x' },
    { method: 'GET', url: '/api/v1/tokens/swap-limits?depositTokenId=x' },
  ],
  create: [{ method: 'POST', url: '/api/v1/orders/create', payload: {} }],
  orders: [
    { method: 'GET', url: '/api/v1/orders/not-a-uuid' },
    { method: 'GET', url: '/api/v1/orders?limit=0' },
  ],
  stream: [{ method: 'GET', url: '/api/orders/not-a-uuid/status-stream' }],
  auth: [
    { method: 'GET', url: '/api/auth/siwx/challenge?chainId=' },
    { method: 'POST', url: '/api/auth/siwx/verify', payload: {} },
  ],
  global: [
    { method: 'GET', url: '/api/openapi.json' },
    { method: 'GET', url: '/api/auth/session' },
  ],
}
const GROUPS = Object.keys(ROUTES) as RateLimitGroup[]

const limits = (max: number) =>
  JSON.stringify(Object.fromEntries(GROUPS.map((g) => [g, { max, timeWindow: '1 minute' }])))

async function send(
  app: Awaited<ReturnType<typeof startGateway>>['app'],
  route: (typeof ROUTES)['catalog'][number],
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: route.method,
    url: route.url,
    headers,
    ...(route.payload ? { payload: route.payload } : {}),
  })
}

t.test('each group allows its max per client, then answers 429 RATE_LIMITED with Retry-After', async (t) => {
  const { app } = await startGateway(t, { env: { RATE_LIMITS: limits(3) } })
  for (const group of GROUPS) {
    const routes = ROUTES[group]
    const seen: Array<{ status: number; limit: unknown; remaining: unknown }> = []
    for (let i = 0; i < 3; i++) {
      const route = routes[i % routes.length]!
      const res = await send(app, route)
      seen.push({
        status: res.statusCode,
        limit: res.headers['x-ratelimit-limit'],
        remaining: res.headers['x-ratelimit-remaining'],
      })
    }
    t.not(seen.map((s) => s.status).includes(429), true, `${group}: the first 3 requests pass`)
    t.same(
      seen.map((s) => [s.limit, s.remaining]),
      [
        ['3', '2'],
        ['3', '1'],
        ['3', '0'],
      ],
      `${group}: limit headers count down across the group's routes`,
    )

    const over = await send(app, routes[routes.length - 1]!)
    const problem = assertProblem(t, over, 'RATE_LIMITED')
    t.equal(problem.group, group, `${group}: the problem names the group`)
    t.equal(problem.limit, 3)
    const retryAfter = Number(over.headers['retry-after'])
    t.ok(retryAfter >= 1 && retryAfter <= 60, `${group}: Retry-After within the window (${retryAfter})`)
    t.equal(problem.retryAfter, retryAfter, `${group}: member retryAfter equals the header`)
    t.equal(over.headers['x-ratelimit-remaining'], '0')
    t.ok(over.headers['x-ratelimit-reset'], 'reset header on the 429')
    t.equal(
      over.headers['content-security-policy'],
      "default-src 'none';frame-ancestors 'none'",
      'security headers on the 429',
    )
  }
})

t.test('groups count separately: exhausting one leaves the others untouched', async (t) => {
  const { app } = await startGateway(t, {
    env: { RATE_LIMITS: JSON.stringify({ orders: { max: 1, timeWindow: 60_000 } }) },
  })
  t.not((await send(app, ROUTES.orders[0]!)).statusCode, 429)
  assertProblem(t, await send(app, ROUTES.orders[1]!), 'RATE_LIMITED')
  const pricing = await send(app, ROUTES.pricing[0]!)
  t.not(pricing.statusCode, 429, 'another group still answers')
  t.equal(pricing.headers['x-ratelimit-limit'], String(DEFAULT_RATE_LIMITS.pricing.max))
})

t.test('without RATE_LIMITS every group has its default limit', async (t) => {
  const { app } = await startGateway(t)
  for (const group of GROUPS) {
    const res = await send(app, ROUTES[group][0]!)
    t.equal(res.headers['x-ratelimit-limit'], String(DEFAULT_RATE_LIMITS[group].max), `${group} default`)
  }
  t.ok(DEFAULT_RATE_LIMITS.catalog.max > DEFAULT_RATE_LIMITS.pricing.max, 'generous on the catalog')
  t.ok(
    DEFAULT_RATE_LIMITS.create.max <= 20 && DEFAULT_RATE_LIMITS.auth.max <= 30,
    'tight on create and sign-in',
  )
})

t.test('RATE_LIMITS overrides one group and keeps the defaults of the others', async (t) => {
  const { app, config } = await startGateway(t, {
    env: { RATE_LIMITS: '{"create":{"max":2,"timeWindow":"30 seconds"}}' },
  })
  t.same(config.edge.rateLimits.create, { max: 2, timeWindow: '30 seconds' })
  t.same(config.edge.rateLimits.catalog, DEFAULT_RATE_LIMITS.catalog)
  for (let i = 0; i < 2; i++) t.not((await send(app, ROUTES.create[0]!)).statusCode, 429)
  const over = await send(app, ROUTES.create[0]!)
  assertProblem(t, over, 'RATE_LIMITED')
  t.ok(Number(over.headers['retry-after']) <= 30, 'the overridden window is used')
})

t.test('a bad RATE_LIMITS is a configuration error naming the variable', async (t) => {
  const base = { NODE_ENV: 'test' }
  const bad = [
    '{"checkout":{"max":5,"timeWindow":"1 minute"}}',
    '{"create":{"max":0,"timeWindow":"1 minute"}}',
    '{"create":{"max":5,"timeWindow":"soon"}}',
    '{"create":{"max":5}}',
    '{"create":',
    '[]',
  ]
  for (const value of bad) {
    t.throws(
      () => loadConfig({ ...base, RATE_LIMITS: value }),
      { name: 'ConfigError', message: /RATE_LIMITS/ },
      value,
    )
  }
  t.throws(() => loadConfig({ ...base, RATE_LIMITS: '{"checkout":{"max":5,"timeWindow":"1 minute"}}' }), {
    message:
      /RATE_LIMITS: unknown group "checkout"; the groups are catalog, pricing, create, orders, stream, auth, global/,
  })
})

t.test('health and readiness are never rate-limited', async (t) => {
  const { app } = await startGateway(t, { env: { RATE_LIMITS: limits(1) } })
  for (let i = 0; i < 5; i++) {
    for (const url of ['/healthz', '/readyz']) {
      const res = await app.inject({ url })
      t.not(res.statusCode, 429, url)
      t.notOk(res.headers['x-ratelimit-limit'], `${url} carries no limit headers`)
    }
  }
})

async function exhaust(
  t: Test,
  app: Awaited<ReturnType<typeof startGateway>>['app'],
  headers: Record<string, string>,
) {
  t.not((await send(app, ROUTES.orders[0]!, headers)).statusCode, 429)
  return send(app, ROUTES.orders[0]!, headers)
}

t.test('clients are told apart by the configured client IP header', async (t) => {
  const { app } = await startGateway(t, {
    env: { RATE_LIMITS: '{"orders":{"max":1,"timeWindow":"1 minute"}}', CLIENT_IP_HEADER: 'Fly-Client-IP' },
  })
  assertProblem(t, await exhaust(t, app, { 'fly-client-ip': '203.0.113.7' }), 'RATE_LIMITED')
  t.not(
    (await send(app, ROUTES.orders[0]!, { 'fly-client-ip': '203.0.113.8' })).statusCode,
    429,
    'another client passes',
  )
  t.not(
    (await send(app, ROUTES.orders[0]!, { 'fly-client-ip': '2001:db8:1:2::9' })).statusCode,
    429,
    'an IPv6 client passes',
  )
  assertProblem(
    t,
    await send(app, ROUTES.orders[0]!, { 'fly-client-ip': '2001:db8:1:2::10' }),
    'RATE_LIMITED',
  )
})

t.test(
  'a client IP header is ignored unless configured, so clients cannot pick their own counter',
  async (t) => {
    const { app } = await startGateway(t, {
      env: { RATE_LIMITS: '{"orders":{"max":1,"timeWindow":"1 minute"}}' },
    })
    await exhaust(t, app, { 'fly-client-ip': '203.0.113.7' })
    assertProblem(t, await send(app, ROUTES.orders[0]!, { 'fly-client-ip': '203.0.113.8' }), 'RATE_LIMITED')
  },
)

t.test('behind a trusted proxy the forwarded client address is counted', async (t) => {
  const { app } = await startGateway(t, {
    env: { RATE_LIMITS: '{"orders":{"max":1,"timeWindow":"1 minute"}}', TRUST_PROXY: 'true' },
  })
  assertProblem(t, await exhaust(t, app, { 'x-forwarded-for': '198.51.100.1' }), 'RATE_LIMITED')
  t.not((await send(app, ROUTES.orders[0]!, { 'x-forwarded-for': '198.51.100.2' })).statusCode, 429)
})

t.test('an upstream 429 is UPSTREAM_UNAVAILABLE carrying the upstream Retry-After', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const tokens = sandbox.control.tokens().filter((tk) => tk.active && tk.blockchain.depositsActive)
  sandbox.control.fault('GET /v1/tokens/quote', {
    kind: 'status',
    status: 429,
    headers: { 'retry-after': '7' },
    body: '',
  })
  const res = await app.inject({
    url: `/api/v1/tokens/quote?depositTokenId=${tokens[0]!.id}&settleTokenId=${tokens[1]!.id}&amount=1&amountIsDeposit=true`,
  })
  const problem = assertProblem(t, res, 'UPSTREAM_UNAVAILABLE')
  t.equal(res.headers['retry-after'], '7')
  t.equal(problem.retryAfter, 7)
  t.equal(sandbox.control.requestsTo('GET /v1/tokens/quote').length, 1, 'not retried into the limit')
})
