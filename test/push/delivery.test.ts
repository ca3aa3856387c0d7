// Order events reaching browsers through a local push service: the message decrypts with the
// browser's keys to the event, the VAPID token and headers are those push services require, and the
// push service's answers decide what becomes of the subscription.
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { startPushService, vapidClaims } from './push-service.js'
import { pushGateway, SUBJECT } from './setup.js'

t.test(
  'an order event is pushed encrypted for the browser, signed with VAPID, with TTL, Topic and Urgency',
  async (t) => {
    const gw = await pushGateway(t, { WEB_PUSH_TTL_S: '600' })
    const push = await startPushService(t)
    const uuid = await gw.newOrder()
    const b = push.browser()
    t.equal((await gw.subscribe(uuid, b.json)).statusCode, 201)
    const event = await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
    await eventually('the push', () => push.to(b).length === 1)
    const [sent] = push.to(b)
    const message = b.decrypt(sent!.body)
    t.same(message, {
      type: 'order.status_changed',
      orderId: uuid,
      status: 'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
      previousStatus: 'AWAITING_USER_DEPOSIT',
      at: event.timestamp,
      title: 'Deposit received',
      body: message.body,
    })
    t.match(message.body, /USDT received/)
    t.ok(sent!.body.length <= 4096, 'within what every push service accepts')
    t.equal(sent!.headers['content-encoding'], 'aes128gcm')
    t.equal(sent!.headers.ttl, '600')
    t.equal(sent!.headers.topic, uuid.replaceAll('-', ''))
    t.match(sent!.headers.topic, /^[A-Za-z0-9_-]{1,32}$/)
    t.equal(sent!.headers.urgency, 'normal')
    const { payload, protectedHeader, publicKey } = await vapidClaims(sent!.headers.authorization)
    t.equal(protectedHeader.alg, 'ES256')
    t.equal(publicKey, gw.keys.publicKey)
    t.equal(payload.aud, push.origin)
    t.equal(payload.sub, SUBJECT)
    const now = Math.floor(Date.now() / 1000)
    t.ok(payload.exp! > now && payload.exp! <= now + 12 * 3600 + 1, 'exp at most 12 hours ahead')
  },
)

t.test("the terminal push is urgent, and then the order's subscriptions are deleted", async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const [a, b] = [push.browser(), push.browser()]
  await gw.subscribe(uuid, a.json)
  await gw.subscribe(uuid, b.json)
  await gw.publish(uuid, 'COMPLETED', 'PROCESSING')
  await eventually('both pushes', () => push.to(a).length === 1 && push.to(b).length === 1)
  t.equal(push.to(a)[0]!.headers.urgency, 'high')
  t.match(a.decrypt(push.to(a)[0]!.body), { status: 'COMPLETED', title: 'Swap completed' })
  await eventually('the subscriptions deleted', async () =>
    /gateway_push_subscriptions 0/.test(await fetchMetrics(gw)),
  )
  // An event published after the end (a second watcher's, say) finds no subscription left.
  const late = await gw.publish(uuid, 'COMPLETED', 'PROCESSING')
  await gw.app.orderEvents.publish({ ...late, id: `${uuid}.late` })
  // A push enqueued for either would be due at once: a look since has sent it, or there was none.
  await gw.app.deliveries.idle()
  t.same([push.to(a).length, push.to(b).length], [1, 1], 'nothing more is pushed')
})

t.test('a subscription to an order that has already ended is pushed its end at once', async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  gw.sandbox.control.deposit(uuid, { amount: 100 })
  gw.sandbox.control.confirm(uuid)
  gw.sandbox.control.complete(uuid)
  const b = push.browser()
  const res = await gw.subscribe(uuid, b.json)
  t.same(res.json(), { orderId: uuid, status: 'COMPLETED' })
  await eventually('the push', () => push.to(b).length === 1)
  t.match(b.decrypt(push.to(b)[0]!.body), { orderId: uuid, status: 'COMPLETED', previousStatus: null })
})

t.test('a newer key for the same endpoint is the one messages are encrypted for', async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const old = push.browser()
  const renewed = old.rekeyed()
  await gw.subscribe(uuid, old.json)
  await gw.subscribe(uuid, renewed.json)
  await gw.publish(uuid, 'PROCESSING', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
  await eventually('one push', () => push.to(renewed).length === 1)
  t.match(renewed.decrypt(push.to(renewed)[0]!.body), { status: 'PROCESSING' })
  t.throws(() => old.decrypt(push.to(renewed)[0]!.body), 'the old keys no longer read it')
})

for (const status of [404, 410]) {
  t.test(`the push service's ${status} deletes the subscription`, async (t) => {
    const gw = await pushGateway(t)
    const push = await startPushService(t)
    const uuid = await gw.newOrder()
    const b = push.browser()
    await gw.subscribe(uuid, b.json)
    push.answer(b, { status })
    await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
    await eventually('the refused push', () => push.to(b).length === 1)
    // The subscription is deleted before its attempt's outcome is counted.
    await eventually('its outcome', async () => /outcome="gone"\} 1/.test(await fetchMetrics(gw)))
    await gw.publish(uuid, 'PROCESSING', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
    await gw.app.deliveries.idle()
    t.equal(push.to(b).length, 1, 'nothing more is sent to it')
    const metrics = await fetchMetrics(gw)
    t.match(metrics, /gateway_push_sends_total\{outcome="gone"\} 1/)
    t.match(metrics, /gateway_push_subscriptions 0/)
  })
}

t.test('a 429 is tried again after its Retry-After, and the push then delivered', async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const b = push.browser()
  await gw.subscribe(uuid, b.json)
  push.answer(b, { status: 429, headers: { 'retry-after': '60' } })
  await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
  await eventually('the first attempt', () => push.to(b).length === 1)
  gw.clock.advance(30_000)
  // A look at the clock's time since the move: what it did not send was not due.
  await gw.app.deliveries.idle()
  t.equal(push.to(b).length, 1, 'not before Retry-After (longer than the first delay)')
  gw.clock.advance(31_000)
  await eventually('the second attempt', () => push.to(b).length === 2)
  t.same(b.decrypt(push.to(b)[1]!.body), b.decrypt(push.to(b)[0]!.body), 'the same message')
  await eventually('counted', async () => /outcome="delivered"\} 1/.test(await fetchMetrics(gw)))
  t.match(await fetchMetrics(gw), /gateway_push_sends_total\{outcome="retried"\} 1/)
})

t.test('logs name the push service host, never the endpoint path or the keys', async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const b = push.browser()
  await gw.subscribe(uuid, b.json)
  push.answer(b, { status: 503 }, { status: 410 })
  await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
  await eventually('the first attempt', () => push.to(b).length === 1)
  gw.clock.advance(10_000)
  await eventually('the second attempt', () => push.to(b).length === 2)
  await eventually('the gone line', () => gw.logs.text().includes('push subscription gone'))
  const logs = gw.logs.text()
  t.ok(logs.includes(new URL(push.origin).host), 'the host is named')
  for (const secret of [b.token, b.json.keys.p256dh, b.json.keys.auth, gw.keys.privateKey])
    t.notOk(logs.includes(secret), 'no endpoint path, key or private key')
})

/** What /metrics would show now. */
const fetchMetrics = (gw: Awaited<ReturnType<typeof pushGateway>>) => gw.app.metrics.registry.metrics()
