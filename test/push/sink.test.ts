// The hand-on after a Redis outage: an event held while the outage's events are being handed on (Redis
// answers again, the link is not reported up yet) goes out with them, after them, not at the next outage.
import t from 'tap'
import type { DeliveryChannel } from '../../src/deliveries/types.js'
import { PushSink } from '../../src/push/sink.js'
import type { PushSubscriptions } from '../../src/push/subscriptions.js'
import type { OrderStatus } from '../../src/upstream/schemas.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { pushGateway } from './setup.js'

t.test('an event held during the hand-on of an outage is handed on after the held ones', async (t) => {
  const gw = await pushGateway(t)
  const uuid = await gw.newOrder()
  const order = (await gw.app.inject({ url: `/api/v1/orders/${uuid}` })).json() as OrderEvent['order']
  const event = (status: OrderStatus, previousStatus: OrderStatus): OrderEvent => ({
    id: `${uuid}.${status}`,
    type: 'order.status_changed',
    timestamp: order.createdAt,
    orderId: uuid,
    status,
    previousStatus,
    userId: null,
    order: { ...order, status },
  })
  // Each read of the subscriptions waits until the test answers it.
  let answer: (() => void) | undefined
  const store = {
    list: async () => {
      await new Promise<void>((resolve) => (answer = resolve))
      return [{ id: 'subscription' }]
    },
  } as unknown as PushSubscriptions
  const enqueued: string[] = []
  const channel = {
    enqueue: async (request: { eventId: string }) => void enqueued.push(request.eventId),
  } as unknown as DeliveryChannel
  const sink = new PushSink({ store, channel, now: () => Date.now(), storeUp: () => false, log: gw.app.log })

  await sink.handle(event('AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT'))
  const handing = sink.handOnHeld()
  await sink.handle(event('PROCESSING', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS'))
  while (answer) {
    const next = answer
    answer = undefined
    next()
    await new Promise((resolve) => setImmediate(resolve))
  }
  await handing
  t.same(
    enqueued,
    [`${uuid}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`, `${uuid}.PROCESSING`],
    'both handed on, in the order they came',
  )
})
