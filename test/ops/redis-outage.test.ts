// Redis as it really fails (docs/operations.md, "When Redis goes away"), on a private redis-server so the
// shared one is never touched: hung (SIGSTOP) it costs the requests in flight one command deadline and
// later requests nothing, shows as a degraded readiness member and gateway_redis_up 0; hung or killed,
// the logouts and Idempotency-Key records taken meanwhile are written back when it answers again, so
// the other instance honours the logout and replays the order.
import { randomBytes, randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import t from 'tap'
import { Client, PUBLIC_ORIGIN } from '../auth/client.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'
import { metricValue } from '../helpers/quota.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { type PrivateRedis, redisServerInstalled, startPrivateRedis } from './private-redis.js'

const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot hang or kill a private Redis'

type Gateway = Awaited<ReturnType<typeof startGateway>>

/** The command deadline of these tests: long enough that "waited a deadline" cannot pass for "did not wait". */
const DEADLINE_MS = 1_000
/** Waits for a recovery: Redis reconnects within a second or two, on a loaded machine within this. */
const RECOVERY_MS = 20_000

/** Two instances on one private Redis and one sandbox (`b` uses `a`'s), with the test's deadline. */
async function twoOnPrivateRedis(t: Test) {
  const redis = await startPrivateRedis(t)
  const tenantKey = `tenant-${randomBytes(12).toString('hex')}`
  const env = {
    REDIS_URL: redis.url,
    REDIS_COMMAND_TIMEOUT_MS: String(DEADLINE_MS),
    TENANT_API_KEY: tenantKey,
    PUBLIC_ORIGIN,
  }
  const a = await startGateway(t, { env, sandbox: { tenantKey }, listen: true })
  const b = await startGateway(t, { env: { ...env, UPSTREAM_URL: a.sandbox.url }, sandbox: { tenantKey } })
  return { redis, a, b }
}

async function bearerOf(gw: Gateway) {
  const { verify } = await signInThroughGateway(new Client(gw.url, null), newWallet(), '1', {
    'x-session-mode': 'token',
  })
  if (verify.status !== 201) throw new Error(`sign-in failed: ${verify.text}`)
  return { authorization: `Bearer ${verify.json.sessionToken as string}` }
}

const session = (gw: Gateway, headers: Record<string, string>) =>
  gw.app.inject({ url: '/api/auth/session', headers })

const redisState = async (gw: Gateway) => {
  const ready = await gw.app.inject({ url: '/readyz' })
  return { status: ready.statusCode, degraded: ready.json().degraded?.redis as string | undefined }
}

const recovered = (gw: Gateway) =>
  eventually('redis to be up again', async () => (await redisState(gw)).degraded === undefined, RECOVERY_MS)

async function elapsed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

t.test(
  'a hung Redis costs the request in flight one deadline, later requests nothing, and shows as degraded',
  { skip: noRedisServer },
  async (t) => {
    const { redis, a } = await twoOnPrivateRedis(t)
    const bearer = await bearerOf(a)
    t.equal(await metricValue(a.app, 'gateway_redis_up'), 1)

    redis.pause()
    // Signed in, a request asks Redis three times (the logout check, its limit, the address ceiling):
    // without a deadline shared by all it would take three.
    let answer: Awaited<ReturnType<typeof session>> | undefined
    const first = await elapsed(async () => (answer = await session(a, bearer)))
    t.match(answer?.json(), { signedIn: true }, 'the logout check fails open')
    t.ok(first < 2.5 * DEADLINE_MS, `the request in flight waited one deadline (${Math.round(first)} ms)`)

    const state = await redisState(a)
    t.equal(state.status, 200, 'still ready: every instance shares Redis')
    t.match(state.degraded, /no answer within 1000 ms/, 'Redis is a degraded member')
    t.equal(await metricValue(a.app, 'gateway_redis_up'), 0)
    t.equal(
      a.logs.lines().filter((l) => l.redis === 'down').length,
      1,
      'the hang is logged once, however often the reconnect probe fails',
    )

    // Each of these would wait at least a deadline if it asked the hung Redis.
    const later = await elapsed(async () => {
      for (let i = 0; i < 5; i++) {
        t.match((await session(a, bearer)).json(), { signedIn: true })
        assertProblem(t, await a.app.inject({ url: '/api/v1/orders/not-a-uuid' }), 'INVALID_ORDER_ID')
      }
    })
    t.ok(
      later < 5 * DEADLINE_MS,
      `ten later requests together waited less than half a deadline each (${Math.round(later)} ms)`,
    )

    redis.resume()
    await recovered(a)
    t.equal(await metricValue(a.app, 'gateway_redis_up'), 1, 'up again once Redis answers the probe in time')
  },
)

const outages: Array<{
  name: string
  begin: (r: PrivateRedis) => Promise<void> | void
  end: (r: PrivateRedis) => Promise<void> | void
}> = [
  { name: 'hung (SIGSTOP, then SIGCONT)', begin: (r) => r.pause(), end: (r) => r.resume() },
  { name: 'killed and restarted empty', begin: (r) => r.stop(), end: (r) => r.start() },
]

for (const outage of outages) {
  t.test(
    `Redis ${outage.name}: a logout and a keyed create taken meanwhile hold on the other instance after`,
    { skip: noRedisServer },
    async (t) => {
      const { redis, a, b } = await twoOnPrivateRedis(t)
      const bearer = await bearerOf(a)
      t.match((await session(b, bearer)).json(), { signedIn: true })
      const p = picks(a.sandbox.control.tokens())
      const key = randomUUID()
      const create = (gw: Gateway, body = orderBody(p)) =>
        gw.app.inject({
          method: 'POST',
          url: '/api/v1/orders/create',
          payload: body,
          headers: { 'idempotency-key': key },
        })
      const creates = () => a.sandbox.control.requestsTo('POST /v1/orders/create').length

      await outage.begin(redis)
      const logout = await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer })
      t.equal(logout.statusCode, 204)
      t.same((await session(a, bearer)).json(), { signedIn: false }, 'the instance that took it honours it')
      const created = await create(a)
      t.equal(created.statusCode, 201, 'keyed creates go on')
      t.equal(creates(), 1)
      t.match(await redisState(a), { status: 200, degraded: String })

      await outage.end(redis)
      await recovered(a)
      await recovered(b)

      t.same((await session(b, bearer)).json(), { signedIn: false }, 'the other instance honours the logout')
      assertProblem(t, await b.app.inject({ url: '/api/v1/orders', headers: bearer }), 'AUTH_REQUIRED')

      const retried = await create(b)
      t.equal(retried.statusCode, 201)
      t.equal(retried.headers['idempotent-replayed'], 'true', 'the retry on the other instance is replayed')
      t.equal(retried.json().uuid, created.json().uuid, 'with the order made during the outage')
      t.equal(creates(), 1, 'and no second order upstream')
      assertProblem(t, await create(b, orderBody(p, 55)), 'IDEMPOTENCY_KEY_REUSED')
    },
  )
}

t.test(
  'Redis killed while a keyed create runs: its record reaches Redis when it is back',
  { skip: noRedisServer },
  async (t) => {
    const { redis, a, b } = await twoOnPrivateRedis(t)
    const p = picks(a.sandbox.control.tokens())
    const key = randomUUID()
    const create = (gw: Gateway) =>
      gw.app.inject({
        method: 'POST',
        url: '/api/v1/orders/create',
        payload: orderBody(p),
        headers: { 'idempotency-key': key },
      })
    a.sandbox.control.fault('POST /v1/orders/create', { kind: 'delay', ms: 1_000 })
    const first = create(a)
    await eventually(
      'the create to reach the upstream',
      () => a.sandbox.control.requestsTo('POST /v1/orders/create').length === 1,
    )
    await redis.stop()
    const created = await first
    t.equal(created.statusCode, 201, 'the order is answered though its record could not be stored')
    await redis.start()
    await recovered(a)
    await recovered(b)

    const retried = await create(b)
    t.equal(retried.headers['idempotent-replayed'], 'true', 'a retry on the other instance is replayed')
    t.equal(retried.json().uuid, created.json().uuid)
    t.equal(a.sandbox.control.requestsTo('POST /v1/orders/create').length, 1)
  },
)
