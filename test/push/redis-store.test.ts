// With REDIS_URL the push subscriptions are the fleet's: what one instance saved, another reads and
// counts against WEB_PUSH_MAX_PER_ORDER; each lapses after its time; while Redis is away a
// subscription is refused rather than promised, and an order event is held and pushed once it answers.
import t, { type Test } from 'tap'
import { RedisSubscriptions } from '../../src/push/redis-subscriptions.js'
import { MAX_HELD } from '../../src/push/sink.js'
import { RETAIN_MS } from '../../src/push/subscriptions.js'
import { KEY_SPACES } from '../../src/redis/stores.js'
import { redisServerInstalled, startPrivateRedis } from '../ops/private-redis.js'
import { eventually } from '../helpers/eventually.js'
import { type Browser, startPushService } from './push-service.js'
import { pushGateway } from './setup.js'

const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot start a private Redis'

t.test(
  'subscriptions in Redis are shared, capped across instances, and lapse',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const gw = await pushGateway(t, { REDIS_URL: redis.url })
    const push = await startPushService(t)
    const uuid = await gw.newOrder()
    const browsers = Array.from({ length: 5 }, () => push.browser())
    for (const b of browsers) t.equal((await gw.subscribe(uuid, b.json)).statusCode, 201)

    // Another instance on the same Redis.
    const other = new RedisSubscriptions(gw.app.redis!, gw.clock, KEY_SPACES.push)
    t.same(
      (await other.list(uuid)).map((s) => s.endpoint).sort(),
      browsers.map((b) => b.json.endpoint).sort(),
      'another instance reads every subscription',
    )
    t.equal(await other.save(uuid, push.browser().json, 5), 'full', 'and may not add a sixth')
    t.equal(await other.save(uuid, browsers[0]!.rekeyed().json, 5), 'saved', 'but may replace keys')
    t.match(await gw.app.metrics.registry.metrics(), /gateway_push_subscriptions 5/)

    gw.clock.jump(RETAIN_MS + 1)
    t.match(await gw.app.metrics.registry.metrics(), /gateway_push_subscriptions 0/)
    t.same(await other.list(uuid), [], 'lapsed subscriptions are gone')
  },
)

t.test('while Redis is away, subscribing is 503 SERVICE_UNAVAILABLE', { skip: noRedisServer }, async (t) => {
  const redis = await startPrivateRedis(t)
  const gw = await pushGateway(t, { REDIS_URL: redis.url })
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  await redis.stop()
  const res = await gw.subscribe(uuid, push.browser().json)
  t.equal(res.statusCode, 503)
  t.equal(res.json().code, 'SERVICE_UNAVAILABLE')
})

// After an outage, Redis (a private server on a loaded machine, held to 300 ms per command) may be seen
// down once more before it settles, and a claim whose answer was lost leaves its delivery leased (30 s
// of the app's clock) before it is claimed again: each later step waits up to the recovery's bound
// while the clock moves on, a tenth of a second per look, so a lease runs out in seconds, not minutes.
const AFTER_OUTAGE_MS = 30_000

type PushService = Awaited<ReturnType<typeof startPushService>>

/** The status changes pushed to `b` (a creation event the outbox hands on again may come too). */
const statusPushes = (push: PushService, b: Browser) =>
  push
    .to(b)
    .map((r) => b.decrypt(r.body))
    .filter((m) => m.type === 'order.status_changed')

function untilPushed(gw: { clock: { advance(ms: number): void } }, what: string, done: () => boolean) {
  return eventually(
    what,
    () => {
      if (done()) return true
      gw.clock.advance(100)
      return false
    },
    AFTER_OUTAGE_MS,
  )
}

/** A browser subscribed to an order through Redis, which then hangs (and is seen down). */
async function subscribedThenHung(t: Test) {
  const redis = await startPrivateRedis(t)
  const gw = await pushGateway(t, { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '300' })
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const b = push.browser()
  await eventually('redis up', () => gw.app.redis?.up === true)
  t.equal((await gw.subscribe(uuid, b.json)).statusCode, 201)
  // Hung, not restarted: a restarted private Redis would have forgotten the subscription.
  redis.pause()
  await eventually('redis seen down', () => gw.app.redis?.up === false)
  return { redis, gw, push, uuid, b }
}

t.test(
  'an event published while Redis is away is pushed once, after it answers again',
  { skip: noRedisServer },
  async (t) => {
    const { redis, gw, push, uuid, b } = await subscribedThenHung(t)
    const started = Date.now()
    const event = await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
    t.ok(Date.now() - started < 300, 'the hand-off is taken without waiting on a Redis known down')
    t.equal(push.to(b).length, 0, 'nothing pushed while Redis is away')
    t.match(
      await gw.app.metrics.registry.metrics(),
      /^gateway_push_subscriptions nan$/im,
      'the count of subscriptions is unknown meanwhile, not zero',
    )
    redis.resume()
    await untilPushed(gw, 'pushed after the recovery', () => statusPushes(push, b).length === 1)
    // The watch reports it again (its own write of the report was lost too): still one push.
    await gw.app.orderEvents.publish(event)
    await eventually(
      'its outcome counted',
      async () =>
        /gateway_push_sends_total\{outcome="delivered"\} 1/.test(await gw.app.metrics.registry.metrics()),
      AFTER_OUTAGE_MS,
    )
    gw.clock.advance(60_000)
    await gw.publish(uuid, 'PROCESSING', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
    await untilPushed(gw, 'the next event pushed', () => statusPushes(push, b).length === 2)
    t.same(
      statusPushes(push, b).map((m) => m.status),
      ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING'],
      'each once, in order',
    )
    // The end is pushed, and the subscription deleted from Redis with it.
    await gw.publish(uuid, 'COMPLETED', 'PROCESSING')
    await untilPushed(gw, 'the end pushed', () => statusPushes(push, b).length === 3)
    const other = new RedisSubscriptions(gw.app.redis!, gw.clock, KEY_SPACES.push)
    await eventually('the subscription deleted', async () => (await other.list(uuid)).length === 0)
  },
)

t.test(
  'an outage holds at most MAX_HELD events for Web Push: the oldest are dropped, with one warning',
  { skip: noRedisServer },
  async (t) => {
    const { redis, gw, push, uuid, b } = await subscribedThenHung(t)
    const first = await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
    // Events of an order nobody subscribed to, enough to push the first one out.
    const elsewhere = '00000000-0000-4000-8000-000000000000'
    for (let i = 0; i < MAX_HELD; i++)
      await gw.app.orderEvents.publish({ ...first, id: `${elsewhere}.${i}`, orderId: elsewhere })
    await gw.publish(uuid, 'PROCESSING', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
    redis.resume()
    await untilPushed(gw, 'the later event pushed', () => statusPushes(push, b).length === 1)
    t.same(
      statusPushes(push, b).map((m) => m.status),
      ['PROCESSING'],
      'the oldest held event was dropped (it would have come first)',
    )
    t.equal(gw.logs.text().split('held for Web Push while Redis is unreachable').length - 1, 1, 'one warning')
  },
)
