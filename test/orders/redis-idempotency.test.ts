// The Redis Idempotency-Key store against a hung Redis (a private redis-server, SIGSTOP): a claim sent
// just as Redis hangs falls back to this process, and may still be applied when Redis resumes (its
// bytes wait in the server's socket buffer), leaving a "running" claim behind. The final record
// written back after the outage must replace it, or every repeat would be refused as in progress and
// then, once the claim expired, create a second order. A create behind the HTTP edge cannot hit this
// window on purpose (the rate limiter's command is the one that hangs), so the store is driven here.
import { Redis } from 'ioredis'
import pino from 'pino'
import t from 'tap'
import { KEY_SPACES } from '../../src/redis/stores.js'
import { systemClock } from '../../src/clock.js'
import { MemoryIdempotencyStore } from '../../src/orders/idempotency-store.js'
import { RedisIdempotencyStore } from '../../src/orders/redis-idempotency-store.js'
import { RedisLink } from '../../src/redis/plugin.js'
import { eventually } from '../helpers/eventually.js'
import { redisServerInstalled, startPrivateRedis } from '../ops/private-redis.js'

const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot hang a private Redis'

const DAY_MS = 86_400_000

t.test(
  'a claim Redis applies as it resumes is replaced by the record written back',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const log = pino({ level: 'silent' })
    const link = new RedisLink({ url: redis.url, connectWaitMs: 2_000, commandTimeoutMs: 500 }, log)
    t.teardown(() => link.close())
    await link.waitUntilReady()
    const store = () =>
      new RedisIdempotencyStore(link, {
        fallback: new MemoryIdempotencyStore(),
        log,
        clock: systemClock,
        prefix: KEY_SPACES.idempotency,
      })
    const here = store()
    // Loads the claim script, so the hung claim is one the server can run when it resumes.
    t.equal(await here.claim('warm-up', 'f0', DAY_MS), undefined)
    // Answers a retry could change are not kept: their claims are dropped.
    t.equal(await here.claim('dropped', 'f0', DAY_MS), undefined)
    await here.release('dropped')
    t.equal(await here.claim('left', 'f0', DAY_MS), undefined)

    redis.pause()
    t.equal(await here.claim('key', 'f1', DAY_MS), undefined, 'claimed in this process after one deadline')
    await here.complete('key', 'f1', { kind: 'created', body: '{"uuid":"u1"}' }, DAY_MS)
    await here.release('left')
    redis.resume()
    await eventually('the link to be up', () => link.up, 20_000)

    const direct = new Redis(redis.url)
    t.teardown(() => direct.disconnect())
    t.match(
      JSON.parse((await direct.get('swap-gateway:idempotency:key')) ?? 'null'),
      { state: 'done', fingerprint: 'f1', response: { kind: 'created', body: '{"uuid":"u1"}' } },
      'Redis holds the final record',
    )
    t.ok((await direct.pttl('swap-gateway:idempotency:key')) > DAY_MS - 60_000, 'for the rest of its day')
    t.match(await store().claim('key', 'f1', DAY_MS), { state: 'done' }, 'another instance replays it')
    t.equal(await direct.exists('swap-gateway:idempotency:dropped'), 0, 'a dropped claim is gone')
    t.match(await store().claim('left', 'f0', DAY_MS), { state: 'running' }, 'one Redis could not drop stays')
  },
)
