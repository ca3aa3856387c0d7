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
import { startPushService } from './push-service.js'
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
// down once more before it settles: each later step gets the recovery's bound, not the default 5 s.
const AFTER_OUTAGE_MS = 30_000

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
    await eventually('pushed after the recovery', () => push.to(b).length === 1, AFTER_OUTAGE_MS)
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
    await eventually('the next event pushed', () => push.to(b).length === 2, AFTER_OUTAGE_MS)
    t.same(
      push.to(b).map((r) => b.decrypt(r.body).status),
      ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING'],
      'each once, in order',
    )
    // The end is pushed, and the subscription deleted from Redis with it.
    await gw.publish(uuid, 'COMPLETED', 'PROCESSING')
    await eventually('the end pushed', () => push.to(b).length === 3, AFTER_OUTAGE_MS)
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
    await eventually('the later event pushed', () => push.to(b).length === 1, 30_000)
    t.same(
      push.to(b).map((r) => b.decrypt(r.body).status),
      ['PROCESSING'],
      'the oldest held event was dropped (it would have come first)',
    )
    t.equal(gw.logs.text().split('held for Web Push while Redis is unreachable').length - 1, 1, 'one warning')
  },
)
