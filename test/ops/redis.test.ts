// Several gateway instances on one Redis (REDIS_URL): one rate limit, one idempotency record. And a
// Redis that goes away mid-test (a private redis-server, killed) must not take the gateway down.
import { randomInt, randomUUID } from 'node:crypto'
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'
import { redisServerInstalled, startPrivateRedis } from './private-redis.js'

const sharedRedis = process.env.REDIS_URL
const noRedis = sharedRedis ? false : 'REDIS_URL is not set: the shared-Redis tests need a real Redis'
const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot stop a private Redis'

/** A client address of this run alone, so counters left in the shared Redis by an earlier run do not count. */
const freshClient = () => ({ 'fly-client-ip': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` })
const ORDER_READ = '/api/v1/orders/not-a-uuid'

t.test('two gateways on one Redis enforce one limit per client', { skip: noRedis }, async (t) => {
  const env = {
    REDIS_URL: sharedRedis!,
    CLIENT_IP_HEADER: 'fly-client-ip',
    RATE_LIMITS: '{"orders":{"max":3,"timeWindow":"1 minute"}}',
  }
  const a = await startGateway(t, { env })
  const b = await startGateway(t, { env })
  const headers = freshClient()
  const remaining: unknown[] = []
  for (const gw of [a, b, a]) {
    const res = await gw.app.inject({ url: ORDER_READ, headers })
    assertProblem(t, res, 'INVALID_ORDER_ID')
    remaining.push(res.headers['x-ratelimit-remaining'])
  }
  t.same(remaining, ['2', '1', '0'], 'both instances count into one counter')
  const over = await b.app.inject({ url: ORDER_READ, headers })
  const problem = assertProblem(t, over, 'RATE_LIMITED')
  t.equal(problem.retryAfter, Number(over.headers['retry-after']))
  const other = await b.app.inject({ url: ORDER_READ, headers: freshClient() })
  assertProblem(t, other, 'INVALID_ORDER_ID', undefined)

  const ready = await a.app.inject({ url: '/readyz' })
  t.equal(ready.statusCode, 200)
  t.notOk(ready.json().degraded, 'a reachable Redis degrades nothing')
})

t.test('two gateways on one Redis replay one Idempotency-Key record', { skip: noRedis }, async (t) => {
  const a = await startGateway(t, { env: { REDIS_URL: sharedRedis! } })
  const b = await startGateway(t, { env: { REDIS_URL: sharedRedis!, UPSTREAM_URL: a.sandbox.url } })
  const p = picks(a.sandbox.control.tokens())
  const key = randomUUID()
  const create = (gw: typeof a, body: object) =>
    gw.app.inject({
      method: 'POST',
      url: '/api/v1/orders/create',
      payload: body,
      headers: { 'idempotency-key': key },
    })

  // The first create is held upstream long enough for the second instance to see it running.
  a.sandbox.control.fault('POST /v1/orders/create', { kind: 'delay', ms: 1_500 })
  const first = create(a, orderBody(p))
  await eventually(
    'the first create held upstream',
    () => a.sandbox.control.requestsTo('POST /v1/orders/create').length === 1,
  )
  assertProblem(t, await create(b, orderBody(p)), 'IDEMPOTENCY_IN_PROGRESS')

  const created = await first
  t.equal(created.statusCode, 201)
  const replayed = await create(b, orderBody(p))
  t.equal(replayed.statusCode, 201)
  t.equal(replayed.headers['idempotent-replayed'], 'true')
  t.equal(replayed.json().uuid, created.json().uuid, 'the other instance answers the same order')
  t.equal(a.sandbox.control.requestsTo('POST /v1/orders/create').length, 1, 'one upstream create in all')

  assertProblem(t, await create(b, orderBody(p, 55)), 'IDEMPOTENCY_KEY_REUSED')
})

t.test(
  "on one Redis, a signed-out client's Idempotency-Key is no other client's",
  { skip: noRedis },
  async (t) => {
    const env = { REDIS_URL: sharedRedis!, CLIENT_IP_HEADER: 'fly-client-ip' }
    const a = await startGateway(t, { env })
    const b = await startGateway(t, { env: { ...env, UPSTREAM_URL: a.sandbox.url } })
    const p = picks(a.sandbox.control.tokens())
    const key = randomUUID()
    const create = (gw: typeof a, client: Record<string, string>, body: object) =>
      gw.app.inject({
        method: 'POST',
        url: '/api/v1/orders/create',
        payload: body,
        headers: { 'idempotency-key': key, ...client },
      })
    const one = freshClient()
    const first = await create(a, one, orderBody(p))
    t.equal(first.statusCode, 201)
    const other = await create(b, freshClient(), orderBody(p))
    t.equal(other.statusCode, 201, 'another client on the other instance gets an order of its own')
    t.notOk(other.headers['idempotent-replayed'])
    t.not(other.json().walletAddress, first.json().walletAddress, 'not the first deposit address')
    t.equal((await create(b, freshClient(), orderBody(p, 55))).statusCode, 201, 'a third: no KEY_REUSED')
    const again = await create(b, one, orderBody(p))
    t.equal(
      again.headers['idempotent-replayed'],
      'true',
      'the first client replays its own on either instance',
    )
    t.equal(again.json().uuid, first.json().uuid)
  },
)

t.test(
  'Redis stopped mid-test: the gateway keeps serving and says so',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const gw = await startGateway(t, {
      env: { REDIS_URL: redis.url, RATE_LIMITS: '{"orders":{"max":2,"timeWindow":"1 minute"}}' },
    })
    const p = picks(gw.sandbox.control.tokens())
    t.equal(
      (await gw.app.inject({ url: ORDER_READ })).headers['x-ratelimit-remaining'],
      '1',
      'counting in Redis',
    )

    await redis.stop()
    for (let i = 0; i < 4; i++) {
      const res = await gw.app.inject({ url: ORDER_READ })
      assertProblem(t, res, 'INVALID_ORDER_ID')
    }
    t.pass('rate limits fail open: requests past the limit still pass while Redis is away')

    const key = randomUUID()
    const create = () =>
      gw.app.inject({
        method: 'POST',
        url: '/api/v1/orders/create',
        payload: orderBody(p),
        headers: { 'idempotency-key': key },
      })
    const created = await create()
    t.equal(created.statusCode, 201, 'keyed creates still work')
    const replayed = await create()
    t.equal(replayed.headers['idempotent-replayed'], 'true', 'and replay within this instance')
    t.equal(replayed.json().uuid, created.json().uuid)

    const ready = await gw.app.inject({ url: '/readyz' })
    t.equal(ready.statusCode, 200, 'still ready: Redis only degrades the gateway')
    t.match(ready.json(), { status: 'ready', degraded: { redis: /unreachable/ } })
    const down = gw.logs.lines().filter((l) => l.redis === 'down')
    t.equal(down.length, 1, 'the outage is logged once, not per reconnect attempt')
    t.equal(down[0]?.level, 50)
    t.notMatch(gw.logs.text(), redis.url, 'the Redis URL is not logged')

    await redis.start()
    // ioredis reconnects on its own backoff (at most 1 s apart), on the process's timers.
    await eventually('the gateway back on Redis', () => gw.app.redis?.up === true, 10_000)
    const back = await gw.app.inject({ url: '/readyz' })
    t.notOk(back.json().degraded, 'readiness recovers when Redis is back')
    t.ok(
      gw.logs.lines().some((l) => l.redis === 'up' && l.level === 40),
      'the recovery is logged',
    )
    const counted = await gw.app.inject({ url: ORDER_READ })
    t.equal(counted.headers['x-ratelimit-remaining'], '1', 'counting in Redis again (a fresh server)')
  },
)

t.test(
  'a Redis that cannot be reached at start-up does not stop the gateway',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    await redis.stop()
    const gw = await startGateway(t, { env: { REDIS_URL: redis.url } })
    assertProblem(t, await gw.app.inject({ url: ORDER_READ }), 'INVALID_ORDER_ID')
    const ready = await gw.app.inject({ url: '/readyz' })
    t.equal(ready.statusCode, 200)
    t.match(ready.json(), { degraded: { redis: String } })
  },
)
