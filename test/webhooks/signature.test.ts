// Every delivery follows Standard Webhooks: the reference verifier accepts it with each configured
// secret alone (so a receiver can rotate), its body is the event, and the secrets appear nowhere.
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import {
  newSecret,
  poll,
  recorded,
  sandboxOrderEvents,
  settled,
  startReceiver,
  webhookGateway,
} from './support.js'

t.test('each delivery verifies with either secret alone, and carries the event as documented', async (t) => {
  const [first, second] = [newSecret(), newSecret()]
  const receiver = await startReceiver(t, [first, second, newSecret()])
  const gw = await webhookGateway(t, {
    env: { WEBHOOK_URLS: receiver.url, WEBHOOK_SECRET: `${first},${second}` },
  })
  const [created, completed] = await sandboxOrderEvents(gw, ['COMPLETED'])
  await gw.app.orderEvents.publish(created!)
  await gw.app.orderEvents.publish(completed!)
  poll(gw)
  await eventually('both events received', () => receiver.received.length === 2)

  for (const r of receiver.received) {
    t.same(r.verified, [true, true, false], 'each configured secret verifies alone; a stranger does not')
    t.equal(r.headers['content-type'], 'application/json')
    t.equal(String(r.headers['webhook-signature']).split(' ').length, 2, 'one signature per secret')
    t.match(r.headers['webhook-timestamp'], /^\d+$/)
  }
  t.same(receiver.ids(), [created!.id, completed!.id])
  const body = JSON.parse(receiver.received[1]!.body)
  t.same(Object.keys(body), ['type', 'timestamp', 'data'])
  t.match(body, {
    type: 'order.status_changed',
    timestamp: completed!.timestamp,
    data: {
      status: 'COMPLETED',
      previousStatus: created!.status,
      userId: null,
      order: { uuid: created!.orderId },
    },
  })
  t.equal(JSON.parse(receiver.received[0]!.body).data.previousStatus, null)

  // The pending figure is read again by the look that follows the deliveries.
  await settled(gw)
  const metrics = await (await fetch((await gw.app.metricsUrl())!)).text()
  t.match(metrics, /gateway_webhook_deliveries_total\{outcome="delivered"\} 2/)
  t.match(metrics, /gateway_webhook_pending 0/)
  const logs = gw.logs.text()
  for (const secret of [first!, second!]) {
    t.notOk(logs.includes(secret) || logs.includes(secret.slice(6)), 'no secret in the logs')
    t.notOk(metrics.includes(secret.slice(6)), 'nor in the metrics')
  }
})

t.test('an event handed on again is delivered once', async (t) => {
  const secret = newSecret()
  const receiver = await startReceiver(t, [secret])
  const gw = await webhookGateway(t, { env: { WEBHOOK_URLS: receiver.url, WEBHOOK_SECRET: secret } })
  const [created] = await sandboxOrderEvents(gw)
  await Promise.all([gw.app.orderEvents.publish(created!), gw.app.orderEvents.publish(created!)])
  poll(gw)
  await eventually('delivered', async () => (await recorded(gw)) === 1)
  await gw.app.orderEvents.publish(created!)
  // A copy enqueued now would be due at once: a look since has sent it, or there was none.
  await settled(gw)
  t.same(receiver.ids(), [created!.id], 'once, also when handed on again after it was delivered')
})
