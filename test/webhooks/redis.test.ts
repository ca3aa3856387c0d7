// With REDIS_URL the deliveries belong to the fleet: two instances on one Redis send each event once
// to a receiver that acknowledges, and pending deliveries survive closing every instance.
import t from 'tap'
import { redisServerInstalled, startPrivateRedis } from '../ops/private-redis.js'
import { eventually } from '../helpers/eventually.js'
import { newSecret, poll, sandboxOrderEvents, settled, startReceiver, webhookGateway } from './support.js'

const skip = redisServerInstalled()
  ? false
  : 'redis-server is not installed: the Redis delivery tests need one'

t.test(
  'two instances on one Redis: each event reaches an acknowledging receiver once',
  { skip },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const secret = newSecret()
    const receiver = await startReceiver(t, [secret])
    const env = { WEBHOOK_URLS: receiver.url, WEBHOOK_SECRET: secret, REDIS_URL: redis.url }
    const a = await webhookGateway(t, { env })
    const b = await webhookGateway(t, { env, clock: a.clock })
    const events = await sandboxOrderEvents(a, ['PROCESSING', 'COMPLETED'])
    // Both instances hand on every event (as after a crash between report and hand-off).
    for (const event of events)
      await Promise.all([a.app.orderEvents.publish(event), b.app.orderEvents.publish(event)])
    poll(a)
    await eventually('all three received', () => receiver.received.length >= 3)
    // Past every claim's lease (one clock for both): a delivery not recorded as done goes out again now.
    a.clock.advance(120_000)
    await Promise.all([settled(a), settled(b)])
    t.same(
      receiver.ids(),
      events.map((e) => e.id),
      'each once, in order',
    )
    t.ok(receiver.received.every((r) => r.verified[0]))
  },
)

t.test('pending deliveries survive closing every instance', { skip }, async (t) => {
  const redis = await startPrivateRedis(t)
  const secret = newSecret()
  const receiver = await startReceiver(t, [secret])
  let up = false
  receiver.answer(() => (up ? { status: 200 } : { status: 503 }))
  const env = { WEBHOOK_URLS: receiver.url, WEBHOOK_SECRET: secret, REDIS_URL: redis.url }
  const first = await webhookGateway(t, { env })
  const [created, completed] = await sandboxOrderEvents(first, ['COMPLETED'])
  await first.app.orderEvents.publish(created!)
  await first.app.orderEvents.publish(completed!)
  poll(first)
  await eventually('the first attempt', () => receiver.received.length === 1)
  await first.app.close()

  up = true
  const second = await webhookGateway(t, { env, clock: first.clock })
  await settled(second)
  t.equal(receiver.received.length, 1, 'the retry keeps its due time across the restart')
  second.clock.advance(2_000)
  await eventually('both delivered by the new instance', () => receiver.received.length === 3)
  t.same(receiver.ids(), [created!.id, created!.id, completed!.id])
})

t.test('an event handed on while Redis is down is delivered once it answers again', { skip }, async (t) => {
  const redis = await startPrivateRedis(t)
  const secret = newSecret()
  const receiver = await startReceiver(t, [secret])
  const env = {
    WEBHOOK_URLS: receiver.url,
    WEBHOOK_SECRET: secret,
    REDIS_URL: redis.url,
    REDIS_COMMAND_TIMEOUT_MS: '300',
  }
  const gw = await webhookGateway(t, { env })
  const [created] = await sandboxOrderEvents(gw)
  await redis.stop()
  await eventually('redis seen down', () => gw.app.redis?.up === false)
  const started = Date.now()
  // Every listener takes it (Web Push holds it too, its subscriptions unreadable now).
  await gw.app.orderEvents.publish(created!)
  t.ok(Date.now() - started < 300, 'the hand-off does not wait on a Redis known down')
  const listed = await fetch(
    `${(await gw.app.metricsUrl())!.replace('/metrics', '')}/webhooks/deliveries?state=pending`,
  )
  t.equal(listed.status, 503, 'the list says Redis is unreachable, at once')
  await redis.start()
  await eventually('redis seen up', () => gw.app.redis?.up === true, 10_000)
  poll(gw)
  await eventually('delivered after the recovery', () => receiver.received.length === 1)
  t.same(receiver.ids(), [created!.id])
})
