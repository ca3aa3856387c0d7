// The delivery machinery in memory mode (no REDIS_URL), driven through a channel whose sender is a
// script: idempotent enqueue, per-(target, order) order, the schedule, and failure at its end. The
// poll is on the app's clock: moving it by POLL_MS is what wakes the worker for what was enqueued.
import t, { type Test } from 'tap'
import type { DeliveryTuning } from '../../src/deliveries/channel.js'
import type { AttemptOutcome, Delivery, DeliveryRequest } from '../../src/deliveries/types.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { buildUnready } from '../helpers/gateway.js'

const POLL_MS = 5

const request = (
  eventId: string,
  orderId = 'order-1',
  target = 'https://a.example/hook',
): DeliveryRequest => ({
  eventId,
  eventType: 'order.status_changed',
  orderId,
  target,
  payload: `{"id":"${eventId}"}`,
})

/** A channel whose worker starts once the returned app is made ready. */
async function unreadyChannel(
  t: Test,
  answer: (d: Delivery) => AttemptOutcome,
  scheduleMs = [1_000, 2_000],
  tuning: Partial<DeliveryTuning> = { pollMs: POLL_MS },
) {
  const clock = fakeClock()
  const sent: Delivery[] = []
  const app = await buildUnready(t, { clock, random: () => 0.5, deliveryTuning: tuning })
  const channel = app.deliveries.channel({
    name: 'webhook',
    scheduleMs,
    send: async (d) => {
      sent.push(d)
      return answer(d)
    },
  })
  return { app, clock, channel, sent }
}

async function channelWith(t: Test, answer: (d: Delivery) => AttemptOutcome, scheduleMs?: number[]) {
  const made = await unreadyChannel(t, answer, scheduleMs)
  await made.app.ready()
  return made
}

t.test('an event enqueued twice for one target is sent once', async (t) => {
  const { app, channel, sent, clock } = await channelWith(t, () => ({
    kind: 'delivered',
    answer: 'HTTP 200',
  }))
  await channel.enqueue(request('o.created'))
  await channel.enqueue(request('o.created'))
  await channel.enqueue(request('o.created', 'order-1', 'https://b.example/hook'))
  clock.advance(POLL_MS)
  await eventually('both targets served', () => sent.length === 2)
  // A second copy would be due once the first settled: a look after that finds none.
  await app.deliveries.idle()
  t.same(sent.map((d) => d.target).sort(), ['https://a.example/hook', 'https://b.example/hook'])
})

t.test('a failing first event holds back the next of the same order to the same target', async (t) => {
  let failFirst = true
  const { app, channel, sent, clock } = await channelWith(t, (d) => {
    if (d.eventId === 'o.created' && failFirst) return { kind: 'retry', answer: 'HTTP 500' }
    return { kind: 'delivered', answer: 'HTTP 200' }
  })
  await channel.enqueue(request('o.created'))
  await channel.enqueue(request('o.COMPLETED'))
  await channel.enqueue(request('p.created', 'order-2'))
  clock.advance(POLL_MS)
  await eventually('the first attempts', () => sent.length === 2)
  // Each settled attempt made its order's next event due, were it to be: a look since finds none.
  await app.deliveries.idle()
  t.same(
    sent.map((d) => d.eventId),
    ['o.created', 'p.created'],
    'COMPLETED waits; another order does not',
  )
  t.equal(channel.stats().pending, 2)
  failFirst = false
  clock.advance(1_000)
  await eventually('the retry and the held event', () => sent.length === 4)
  t.same(
    sent.slice(2).map((d) => [d.eventId, d.attempts]),
    [
      ['o.created', 1],
      ['o.COMPLETED', 0],
    ],
  )
})

t.test('after the last delay the delivery has failed, is listed, and a retry sends it at once', async (t) => {
  let answer: AttemptOutcome = { kind: 'retry', answer: 'HTTP 503' }
  const { app, channel, sent, clock } = await channelWith(t, () => answer, [1_000])
  await channel.enqueue(request('o.created'))
  clock.advance(POLL_MS)
  await eventually('the first attempt', () => sent.length === 1)
  clock.advance(999)
  await app.deliveries.idle()
  t.equal(sent.length, 1, 'nothing before the delay (jitter 0 with random 0.5)')
  clock.advance(1)
  await eventually('the second attempt', () => sent.length === 2)
  await eventually('failed', async () => (await channel.list('failed')).length === 1)
  const [failed] = await channel.list('failed')
  t.match(failed, { eventId: 'o.created', attempts: 2, lastAnswer: 'HTTP 503', nextAttemptAt: null })
  t.same(await channel.list('pending'), [])
  answer = { kind: 'delivered', answer: 'HTTP 200' }
  t.equal(await channel.retry('o.created', 'https://b.example/hook'), false, 'no such failed delivery')
  t.equal(await channel.retry('o.created', 'https://a.example/hook'), true)
  await eventually('the hand-made retry', () => sent.length === 3)
  await eventually('nothing left', async () => (await channel.list('failed')).length === 0)
})

t.test('a backlog goes out as fast as the receiver answers, not a batch per poll', async (t) => {
  // One look at start, then one an hour, 4 per claim: only looking again as attempts settle (each
  // settled event makes its order's next one due) can send all of these.
  const delivered = () => ({ kind: 'delivered', answer: 'HTTP 204' }) as const
  const { app, channel, sent } = await unreadyChannel(t, delivered, undefined, {
    pollMs: 3_600_000,
    batch: 4,
  })
  const orders = Array.from({ length: 10 }, (_, i) => `order-${i}`)
  for (const step of ['created', 'PROCESSING', 'COMPLETED']) {
    for (const order of orders) await channel.enqueue(request(`${order}.${step}`, order))
  }
  await app.ready()
  await eventually('all 30 delivered with the clock standing still', () => sent.length === 30)
  for (const order of orders) {
    t.same(
      sent.filter((d) => d.orderId === order).map((d) => d.eventId),
      [`${order}.created`, `${order}.PROCESSING`, `${order}.COMPLETED`],
      `${order}'s events in order`,
    )
  }
})
