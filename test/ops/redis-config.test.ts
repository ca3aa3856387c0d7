// Redis's settings (docs/configuration.md): REDIS_COMMAND_TIMEOUT_MS, and a REDIS_URL whose database Redis
// refuses, which stops start-up with a message naming the variable instead of serving from database 0.
import t from 'tap'
import { loadConfig } from '../../src/config.js'
import { eventually } from '../helpers/eventually.js'
import { runGateway } from '../helpers/process.js'
import { startGateway } from '../helpers/gateway.js'
import { metricValue } from '../helpers/quota.js'
import { redisServerInstalled, startPrivateRedis } from './private-redis.js'

const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot start a private Redis'

t.test('REDIS_COMMAND_TIMEOUT_MS is 250 ms unless set, and must be a positive integer', async (t) => {
  t.equal(loadConfig({}).redis.commandTimeoutMs, 250)
  t.equal(loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '40' }).redis.commandTimeoutMs, 40)
  for (const bad of ['0', '-5', 'soon', '2.5'])
    t.throws(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: bad }), {
      name: 'ConfigError',
      message: /REDIS_COMMAND_TIMEOUT_MS/,
    })
})

t.test('REDIS_URL names a database by number, or none', async (t) => {
  for (const ok of ['redis://h:6379', 'redis://h:6379/', 'rediss://u:p@h:6380/3'])
    t.equal(loadConfig({ REDIS_URL: ok }).redis.url, ok)
  t.throws(() => loadConfig({ REDIS_URL: 'redis://h:6379/sessions' }), {
    name: 'ConfigError',
    message: /REDIS_URL: .*database number/,
  })
})

t.test('a database Redis refuses stops start-up, naming REDIS_URL', { skip: noRedisServer }, async (t) => {
  const redis = await startPrivateRedis(t)
  await t.rejects(startGateway(t, { env: { REDIS_URL: `${redis.url}/99` } }), {
    name: 'ConfigError',
    message: /REDIS_URL: Redis refused database 99 \(.*DB index is out of range/,
  })
  // A database it has is fine, and is the one written to.
  const gw = await startGateway(t, { env: { REDIS_URL: `${redis.url}/5` } })
  t.notOk((await gw.app.inject({ url: '/readyz' })).json().degraded)
  await gw.app.inject({ url: '/api/v1/orders/not-a-uuid' })
  const keyspace = await gw.app.redis!.client.info('keyspace')
  t.match(keyspace, /^db5:keys=\d+,/m, 'database 5 is written to')
  const counters = await gw.app.redis!.client.keys('swap-gateway:ratelimit:*')
  t.equal(counters.length, 1, 'the rate-limit counter is there')
  t.notMatch(keyspace, /^db0:/m, 'nothing in database 0')

  const proc = runGateway({ REDIS_URL: `${redis.url}/99`, PORT: '0', HOST: '127.0.0.1' })
  // A process that started instead is stopped after a while, failing the test rather than hanging it.
  const serving = setTimeout(() => proc.child.kill(), 60_000)
  t.equal(await proc.exited, 1, 'the process exits 1')
  clearTimeout(serving)
  t.match(proc.stderr(), /REDIS_URL: Redis refused database 99/)
  t.notMatch(proc.stderr(), /\n\s+at /, 'a message, not a stack trace')
})

t.test(
  'a database first refused after start-up leaves the instance degraded, naming REDIS_URL',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    await redis.stop()
    const gw = await startGateway(t, { env: { REDIS_URL: `${redis.url}/99` } })
    await redis.start()
    const refusal = async () => {
      const ready = await gw.app.inject({ url: '/readyz' })
      return { status: ready.statusCode, redis: String(ready.json().degraded?.redis) }
    }
    await eventually('the refusal', async () => /refused/.test((await refusal()).redis), 20_000)
    t.match(await refusal(), { status: 200, redis: /^REDIS_URL names a database Redis refused: .*DB index/ })
    t.equal(await metricValue(gw.app, 'gateway_redis_up'), 0)
    t.ok(
      gw.logs.lines().some((l) => l.redis === 'down' && /REDIS_URL/.test(String(l.reason))),
      'logged, naming the variable',
    )
  },
)
