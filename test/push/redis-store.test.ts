// With REDIS_URL the push subscriptions are the fleet's: what one instance saved, another reads and
// counts against WEB_PUSH_MAX_PER_ORDER; each lapses after its time; and while Redis is away a
// subscription is refused rather than promised.
import t from 'tap'
import { RedisSubscriptions } from '../../src/push/redis-subscriptions.js'
import { RETAIN_MS } from '../../src/push/subscriptions.js'
import { KEY_SPACES } from '../../src/redis/stores.js'
import { redisServerInstalled, startPrivateRedis } from '../ops/private-redis.js'
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
