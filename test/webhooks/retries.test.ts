// What a receiver's answer does to a delivery: 2xx delivers; 5xx, 3xx, timeouts and cut connections
// are tried again on the schedule (±20 %), or after Retry-After when longer; 410 ends it with an error
// line naming the URL; and one order's next event waits while an earlier one is pending.
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import {
  type Act,
  attempts,
  newSecret,
  poll,
  recorded,
  sandboxOrderEvents,
  settled,
  startReceiver,
  webhookGateway,
} from './support.js'

async function setUp(
  t: Parameters<typeof webhookGateway>[0],
  act: (n: number) => Act,
  opts: { random?: () => number; env?: Record<string, string> } = {},
) {
  const secret = newSecret()
  const receiver = await startReceiver(t, [secret])
  receiver.answer(() => act(receiver.received.length))
  const gw = await webhookGateway(t, {
    env: { WEBHOOK_URLS: receiver.url, WEBHOOK_SECRET: secret, ...opts.env },
    random: opts.random,
  })
  const events = await sandboxOrderEvents(gw, ['COMPLETED'])
  return { ...gw, receiver, events }
}

t.test("a 500 is tried again after the schedule's delay, spread by at most 20 %", async (t) => {
  for (const [random, early, due] of [
    [0, 799, 800],
    [0.999999, 1199, 1200],
  ] as const) {
    await t.test(`random ${random}: not before ${due} ms`, async (t) => {
      const gw = await setUp(t, (n) => (n === 1 ? { status: 500 } : { status: 200 }), {
        random: () => random,
      })
      await gw.app.orderEvents.publish(gw.events[0]!)
      poll(gw)
      await attempts(gw, 1)
      gw.clock.advance(early)
      await settled(gw)
      t.equal(gw.receiver.received.length, 1, `nothing at ${early} ms`)
      gw.clock.advance(due - early)
      await attempts(gw, 2)
      t.equal(gw.receiver.ids()[1], gw.events[0]!.id, 'the same webhook-id')
    })
  }
})

t.test('a Retry-After longer than the delay is honoured; a shorter one is not', async (t) => {
  const gw = await setUp(t, (n) =>
    n <= 2 ? { status: 503, headers: { 'retry-after': n === 1 ? '5' : '1' } } : { status: 200 },
  )
  await gw.app.orderEvents.publish(gw.events[0]!)
  poll(gw)
  await attempts(gw, 1)
  gw.clock.advance(4_999)
  await settled(gw)
  t.equal(gw.receiver.received.length, 1, 'waits the 5 s asked, not the 1 s of the schedule')
  gw.clock.advance(1)
  await attempts(gw, 2)
  gw.clock.advance(1_999)
  await settled(gw)
  t.equal(gw.receiver.received.length, 2, 'a 1 s Retry-After under the 2 s delay: the delay holds')
  gw.clock.advance(1)
  await attempts(gw, 3)
})

t.test('after the last delay the delivery has failed', async (t) => {
  const gw = await setUp(t, () => ({ status: 500 }))
  await gw.app.orderEvents.publish(gw.events[0]!)
  poll(gw)
  await attempts(gw, 1)
  gw.clock.advance(1_000)
  await attempts(gw, 2)
  gw.clock.advance(2_000)
  await attempts(gw, 3)
  gw.clock.advance(60_000)
  await settled(gw)
  t.equal(gw.receiver.received.length, 3, 'no fourth attempt')
  await eventually('failed logged', () => gw.logs.text().includes('webhook delivery failed'))
})

t.test('410 Gone ends the delivery at once, with an error line naming the URL', async (t) => {
  const gw = await setUp(t, () => ({ status: 410 }))
  await gw.app.orderEvents.publish(gw.events[0]!)
  poll(gw)
  await eventually('the error line', () =>
    gw.logs.lines().some((l) => l.level === 50 && l.url === gw.receiver.url),
  )
  gw.clock.advance(60_000)
  await settled(gw)
  t.equal(gw.receiver.received.length, 1, 'never tried again')
  const metrics = await (await fetch((await gw.app.metricsUrl())!)).text()
  t.match(metrics, /gateway_webhook_deliveries_total\{outcome="gone"\} 1/)
})

t.test('a redirect is not followed: it is a failed attempt', async (t) => {
  const gw = await setUp(t, (n) =>
    n === 1 ? { status: 307, headers: { location: '/elsewhere' } } : { status: 200 },
  )
  await gw.app.orderEvents.publish(gw.events[0]!)
  poll(gw)
  await attempts(gw, 1)
  await settled(gw)
  t.equal(gw.receiver.received.length, 1, 'nothing sent to the location')
  t.match(await recorded(gw), 1, 'the 307 counted as an attempt')
  gw.clock.advance(1_000)
  await attempts(gw, 2)
})

t.test('a receiver that hangs past WEBHOOK_TIMEOUT_MS, or cuts the connection, is tried again', async (t) => {
  const gw = await setUp(t, (n) => (n === 1 ? 'hang' : n === 2 ? 'reset' : { status: 200 }), {
    env: { WEBHOOK_TIMEOUT_MS: '300' },
  })
  await gw.app.orderEvents.publish(gw.events[0]!)
  poll(gw)
  await attempts(gw, 1)
  await eventually('the timeout counted', async () => {
    const text = await (await fetch((await gw.app.metricsUrl())!)).text()
    return /outcome="retried"\} 1/.test(text)
  })
  gw.clock.advance(1_000)
  await attempts(gw, 2)
  await eventually('the reset counted', async () => {
    const text = await (await fetch((await gw.app.metricsUrl())!)).text()
    return /outcome="retried"\} 2/.test(text)
  })
  gw.clock.advance(2_000)
  await attempts(gw, 3)
})

t.test("one order's next event waits while the first is pending", async (t) => {
  const gw = await setUp(t, (n) => (n === 1 ? { status: 500 } : { status: 200 }))
  const [created, completed] = gw.events
  await gw.app.orderEvents.publish(created!)
  await gw.app.orderEvents.publish(completed!)
  poll(gw)
  await attempts(gw, 1)
  await settled(gw)
  t.same(gw.receiver.ids(), [created!.id], 'COMPLETED held back behind the failing created')
  gw.clock.advance(1_000)
  await attempts(gw, 3)
  t.same(gw.receiver.ids(), [created!.id, created!.id, completed!.id])
})
