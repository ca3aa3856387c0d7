// A fleet of gateways sharing one tenant key and one Redis (docs/operations.md): rate limits per signed-in
// user under an IP ceiling, the upstream call budget (UPSTREAM_MAX_RPS) and the pause after an upstream
// 429 hold across instances, and a Redis killed mid-test leaves every instance serving. Each test has a
// tenant key and client addresses of its own, so runs sharing the Redis never count into each other.
import { randomBytes, randomInt } from 'node:crypto'
import type { Test } from 'tap'
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { type GatewayOptions, startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'
import { fakeClock } from '../helpers/clock.js'
import { metricValue, quoteUrl } from '../helpers/quota.js'
import { Client, PUBLIC_ORIGIN } from '../auth/client.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { redisServerInstalled, startPrivateRedis } from './private-redis.js'

const sharedRedis = process.env.REDIS_URL
const noRedis = sharedRedis ? false : 'REDIS_URL is not set: the fleet tests need a real Redis'
const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot stop a private Redis'

type Gateway = Awaited<ReturnType<typeof startGateway>>

const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
const ORDER_READ = '/api/v1/orders/not-a-uuid'

/**
 * Two gateways on one sandbox (the same upstream and tenant key), `b` sharing `a`'s sandbox. The
 * tenant key is this test's own: the upstream budget and cool-down are keyed by it in Redis.
 */
async function twoGateways(t: Test, env: Record<string, string>, deps: GatewayOptions['deps'] = {}) {
  const tenantKey = `tenant-${randomBytes(12).toString('hex')}`
  const common = { TENANT_API_KEY: tenantKey, PUBLIC_ORIGIN, CLIENT_IP_HEADER: 'fly-client-ip', ...env }
  const a = await startGateway(t, { env: common, sandbox: { tenantKey }, deps, listen: true })
  const b = await startGateway(t, {
    env: { ...common, UPSTREAM_URL: a.sandbox.url },
    sandbox: { tenantKey },
    deps,
    listen: true,
  })
  return { a, b }
}

async function sessionToken(gw: Gateway) {
  const { verify } = await signInThroughGateway(new Client(gw.url, null), newWallet(), '1', {
    'x-session-mode': 'token',
  })
  if (verify.status !== 201) throw new Error(`sign-in failed: ${verify.text}`)
  return verify.json.sessionToken as string
}

const read = (gw: Gateway, ip: string, token?: string) =>
  gw.app.inject({
    url: ORDER_READ,
    headers: { 'fly-client-ip': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  })

const LIMITS = JSON.stringify({
  auth: { max: 1000, timeWindow: '1 minute' },
  orders: { max: 2, timeWindow: '1 minute', ipCeiling: 2 },
})

/** `a` and `b` may be one instance (memory) or two on one Redis: the user sees the same limits. */
async function walletsBehindOneAddress(t: Test, a: Gateway, b: Gateway) {
  const [first, second, third] = [await sessionToken(a), await sessionToken(b), await sessionToken(a)]
  const office = freshIp()

  const firstSeen = [await read(a, office, first), await read(b, office, first)]
  t.same(
    firstSeen.map((r) => [r.statusCode, r.headers['x-ratelimit-remaining']]),
    [
      [400, '1'],
      [400, '0'],
    ],
    'a signed-in wallet spends its own budget, on either instance',
  )
  const own = assertProblem(t, await read(b, office, first), 'RATE_LIMITED')
  t.match(own, { group: 'orders', limit: 2, detail: /from this client/ })

  const secondSeen = [await read(b, office, second), await read(a, office, second)]
  t.same(
    secondSeen.map((r) => r.statusCode),
    [400, 400],
    'a colleague behind the same address has a budget of their own',
  )

  const ceiling = await read(a, office, third)
  const problem = assertProblem(t, ceiling, 'RATE_LIMITED')
  t.match(problem, { group: 'orders', limit: 4, detail: /from this address/ }, 'the IP ceiling is 2 × 2')
  t.equal(problem.retryAfter, Number(ceiling.headers['retry-after']))
  t.equal(ceiling.headers['x-ratelimit-limit'], '4')
  t.equal(ceiling.headers['x-ratelimit-remaining'], '0')

  t.equal((await read(b, freshIp(), third)).statusCode, 400, 'the third wallet passes from another address')
  t.equal((await read(b, office)).statusCode, 400, 'signed-out callers on that address keep their own budget')
  t.equal(
    (await read(a, office, 'not-a-session')).headers['x-ratelimit-remaining'],
    '0',
    'a token that is no session counts as its address, with the signed-out callers',
  )
}

t.test(
  'one instance: wallets behind one address each get their own budget, up to the IP ceiling',
  async (t) => {
    const { a } = await twoGateways(t, { RATE_LIMITS: LIMITS })
    await walletsBehindOneAddress(t, a, a)
  },
)

t.test(
  'two instances on one Redis: wallets behind one address each get their own budget, up to the IP ceiling',
  { skip: noRedis },
  async (t) => {
    const { a, b } = await twoGateways(t, { REDIS_URL: sharedRedis!, RATE_LIMITS: LIMITS })
    await walletsBehindOneAddress(t, a, b)
  },
)

const quote = (gw: Gateway, amount: number) =>
  gw.app.inject({ url: quoteUrl(gw.sandbox.control.tokens(), amount) })
const scrape = (gw: Gateway, name: string) => metricValue(gw.app, name)

t.test(
  "UPSTREAM_MAX_RPS caps the sum of both instances' upstream calls in one clock second",
  { skip: noRedis },
  async (t) => {
    const clock = fakeClock()
    const { a, b } = await twoGateways(t, { REDIS_URL: sharedRedis!, UPSTREAM_MAX_RPS: '4' }, { clock })
    // A second of its own: the catalog loads at start-up counted in the one before.
    clock.advance(1_000)
    const quotes = a.sandbox.control.requestsTo('GET /v1/tokens/quote').length
    const answers = []
    for (let i = 0; i < 6; i++) {
      const gw = i % 2 === 0 ? a : b
      answers.push(await quote(gw, i + 1))
    }
    t.same(
      answers.map((r) => r.statusCode),
      [200, 200, 200, 200, 503, 503],
    )
    for (const refused of answers.slice(4)) {
      const problem = assertProblem(t, refused, 'UPSTREAM_UNAVAILABLE')
      t.equal(refused.headers['retry-after'], '1', 'retry in the next second')
      t.equal(problem.retryAfter, 1)
    }
    t.equal(
      a.sandbox.control.requestsTo('GET /v1/tokens/quote').length - quotes,
      4,
      'four calls reached the upstream',
    )
    t.equal(
      (await b.app.inject({ url: '/api/v1/tokens' })).statusCode,
      200,
      'the catalog is served from memory',
    )
    t.equal(
      (await scrape(a, 'gateway_upstream_budget_refused_total')) +
        (await scrape(b, 'gateway_upstream_budget_refused_total')),
      2,
      'the refusals are counted in metrics',
    )

    clock.advance(1_000)
    t.equal((await quote(b, 7)).statusCode, 200, 'the next second has a budget again')
  },
)

t.test(
  'an upstream 429 seen by one instance stops the other from calling until its Retry-After',
  { skip: noRedis },
  async (t) => {
    const COOL_DOWN_POLL_MS = 20
    const clock = fakeClock()
    const { a, b } = await twoGateways(
      t,
      { REDIS_URL: sharedRedis! },
      { clock, upstreamTuning: { coolDownPollMs: COOL_DOWN_POLL_MS } },
    )
    const quotes = () => a.sandbox.control.requestsTo('GET /v1/tokens/quote').length
    a.sandbox.control.fault('GET /v1/tokens/quote', {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '30' },
      body: '',
    })
    const limited = await quote(a, 1)
    assertProblem(t, limited, 'UPSTREAM_UNAVAILABLE')
    t.equal(limited.headers['retry-after'], '30')
    const before = quotes()

    // Each look moves the clock one poll on: the other instance reads the shared pause at its polls.
    await eventually('the other instance hears of the cool-down', async () => {
      clock.advance(COOL_DOWN_POLL_MS)
      return (await scrape(b, 'gateway_upstream_cooldown_seconds')) > 0
    })
    clock.advance(10_000)
    const paused = await quote(b, 2)
    const problem = assertProblem(t, paused, 'UPSTREAM_UNAVAILABLE')
    t.equal(paused.headers['retry-after'], '20', 'the remaining Retry-After')
    t.equal(problem.retryAfter, 20)
    t.equal(quotes(), before, 'the other instance did not call the upstream')
    t.equal(await scrape(b, 'gateway_upstream_cooldown_refused_total'), 1)

    clock.advance(20_000)
    t.equal((await quote(b, 3)).statusCode, 200, 'calls resume once it has passed')
    t.equal((await quote(a, 4)).statusCode, 200)
    t.equal(quotes(), before + 2)
  },
)

t.test(
  'a Redis killed mid-test leaves both instances serving, with degraded readiness',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const clock = fakeClock()
    const { a, b } = await twoGateways(
      t,
      { REDIS_URL: redis.url, UPSTREAM_MAX_RPS: '50', RATE_LIMITS: LIMITS },
      { clock },
    )
    const token = await sessionToken(a)
    const ip = freshIp()
    t.equal((await read(a, ip, token)).headers['x-ratelimit-remaining'], '1', 'counting in Redis')
    t.equal((await read(b, ip, token)).headers['x-ratelimit-remaining'], '0', 'on either instance')

    await redis.stop()
    for (const gw of [a, b, a, b]) {
      t.equal((await read(gw, ip, token)).statusCode, 400, 'rate limits fail open')
      t.equal((await quote(gw, 5)).statusCode, 200, 'quotes are served')
    }
    for (const gw of [a, b]) {
      const ready = await gw.app.inject({ url: '/readyz' })
      t.equal(ready.statusCode, 200)
      t.match(ready.json(), { status: 'ready', degraded: { redis: /unreachable/ } })
      t.ok(
        (await scrape(gw, 'gateway_upstream_budget_unshared_total')) >= 2,
        'upstream calls counted in the instance alone, and said so',
      )
      t.equal(await scrape(gw, 'gateway_redis_up'), 0)
    }
  },
)

t.test('a session logged out on one instance is no session on the other', { skip: noRedis }, async (t) => {
  const { a, b } = await twoGateways(t, { REDIS_URL: sharedRedis! })
  const token = await sessionToken(a)
  const bearer = { authorization: `Bearer ${token}` }
  t.match((await b.app.inject({ url: '/api/auth/session', headers: bearer })).json(), { signedIn: true })

  const logout = await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer })
  t.equal(logout.statusCode, 204)
  t.same((await b.app.inject({ url: '/api/auth/session', headers: bearer })).json(), { signedIn: false })
  assertProblem(t, await b.app.inject({ url: '/api/v1/orders', headers: bearer }), 'AUTH_REQUIRED')
})
