// Wallet streams across a fleet sharing one Redis: an order event published on one instance (the one
// whose watch found it) reaches the user's streams on every instance, once; a reconnect to another
// instance resumes from the shared log; a logout on one instance ends the user's streams on another;
// while Redis is away, streams open without waiting on it and get the outage's events once it is back.
import type { Test } from 'tap'
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { events } from '../helpers/sse.js'
import { redisServerInstalled, startPrivateRedis } from '../ops/private-redis.js'
import { RETAIN_MS, reconnects } from './resume.js'
import { orderEvent, walletGateway } from './setup.js'

const sharedRedis = process.env.REDIS_URL
const noRedis = sharedRedis ? false : 'REDIS_URL is not set: the fleet tests need a real Redis'
const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot stop a private Redis'

const twoInstances = async (t: Test, env: Record<string, string> = {}) => {
  const a = await walletGateway(t, { env: { REDIS_URL: sharedRedis!, ...env } })
  const b = await walletGateway(t, { env: { REDIS_URL: sharedRedis!, ...env }, upstreamOf: a })
  return { a, b }
}

t.test(
  'an event published on one instance reaches the streams on the others, once',
  { skip: noRedis },
  async (t) => {
    const { a, b } = await twoInstances(t)
    const [alice, bob] = [await a.user(), await a.user()]
    const onB = b.follow(alice.auth)
    const onA = a.follow(alice.auth)
    const bobOnB = b.follow(bob.auth)
    for (const f of [onA, onB, bobOnB]) await f.until('the snapshot', () => f.events.length === 1)

    const hers = await a.createOrder(alice.token)
    await a.app.orderEvents.publish(orderEvent(hers))
    await a.app.orderEvents.publish(orderEvent(hers))
    a.sandbox.control.deposit(hers.uuid)
    await b.app.orderEvents.publish(orderEvent(await a.readOrder(hers.uuid), 'AWAITING_DEPOSIT'))
    const his = await a.createOrder(bob.token)
    await a.app.orderEvents.publish(orderEvent(his))
    await bobOnB.until('his order', () => bobOnB.events.length === 2)
    await onB.until('her two events on B', () => onB.events.length === 3)
    await onA.until('her two events on A', () => onA.events.length === 3)

    for (const [where, f] of [
      ['B', onB],
      ['A', onA],
    ] as const) {
      t.same(
        f.events.map((e) => e.type),
        ['snapshot', 'order-created', 'orders:status-update'],
        `on ${where}: her events, once each, in order`,
      )
    }
    t.same(
      onA.events.map((e) => e.id),
      onB.events.map((e) => e.id),
      'the same ids on every instance',
    )
    t.equal(bobOnB.events[1]!.data.uuid, his.uuid, 'and his own event only to him')
  },
)

t.test('a reconnect to another instance resumes from the shared log', { skip: noRedis }, async (t) => {
  const { a, b } = await twoInstances(t, { WALLET_EVENTS_RETAIN_MS: String(RETAIN_MS) })
  await reconnects(t, b, a)
})

t.test('a logout on one instance ends the streams on another', { skip: noRedis }, async (t) => {
  const { a, b } = await twoInstances(t, { SSE_HEARTBEAT_MS: '100' })
  const alice = await a.user()
  const onA = await a.raw(alice.auth)
  t.equal(events(await onA.first())[0]!.event, 'snapshot')
  await b.logout(alice.token)
  const text = await onA.until('the end of the stream on A', (_, ended) => ended)
  t.match(text, /: session ended; sign in again\n\n$/)
})

t.test(
  'with Redis down a stream opens at once with a snapshot, and the events found meanwhile follow when it is back',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const gw = await walletGateway(t, { env: { REDIS_URL: redis.url } })
    const alice = await gw.user()
    await redis.stop()
    await eventually('the gateway sees Redis down', () => gw.app.redis?.up === false)

    const stream = await gw.raw(alice.auth)
    const first = events(await stream.first())[0]!
    t.equal(first.event, 'snapshot', 'no wait on a Redis known down')
    t.equal(first.id, '', 'no log id: a reconnect starts afresh')
    const hers = await gw.createOrder(alice.token)
    // Web Push cannot read its subscriptions while Redis is down and refuses the hand-off (the watch
    // publishes the event again later); the wallet log keeps it meanwhile.
    await gw.app.orderEvents.publish(orderEvent(hers)).catch(() => {})

    await redis.start()
    const text = await stream.until(
      'the event found during the outage',
      (s) => events(s).length === 2,
      15_000,
    )
    t.match(events(text)[1], { event: 'order-created', id: /^\d+-\d+$/ })
    stream.close()
  },
)
