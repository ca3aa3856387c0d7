// Where order events become pushes: each event of an order is handed, durably, to the `push` delivery
// channel once per subscription the order has when the event comes (the channel sends it, retries it,
// and keeps one order's events in order per subscription). A subscription made after its order ended
// is pushed that end at once.
import type { DeliveryChannel } from '../deliveries/types.js'
import type { Order } from '../upstream/schemas.js'
import type { OrderEvent } from '../watch/order-event.js'
import { isTerminal, pushMessageOf } from './message.js'
import { targetOf } from './sender.js'
import type { PushSubscriptions } from './subscriptions.js'

type Event = Parameters<typeof pushMessageOf>[0] & { id: string }

export class PushSink {
  constructor(
    private readonly store: PushSubscriptions,
    private readonly channel: DeliveryChannel,
    private readonly now: () => number,
  ) {}

  /** An order event, handed on to every subscription of its order. */
  async handle(event: OrderEvent): Promise<void> {
    const subscriptions = await this.store.list(event.orderId)
    await Promise.all(subscriptions.map((s) => this.enqueue(event, s.id)))
  }

  /** A new subscription of an order that has already ended: its end, pushed at once. */
  async pushEnded(order: Order, subscriptionId: string): Promise<void> {
    if (!isTerminal(order.status)) return
    const event: Event = {
      // The id the watch gives this transition: one push per subscription, whoever hands it on.
      id: `${order.uuid}.${order.status}`,
      type: 'order.status_changed',
      orderId: order.uuid,
      status: order.status,
      previousStatus: null,
      timestamp: new Date(this.now()).toISOString(),
      order,
    }
    await this.enqueue(event, subscriptionId)
  }

  private enqueue(event: Event, subscriptionId: string) {
    return this.channel.enqueue({
      eventId: event.id,
      eventType: event.type,
      orderId: event.orderId,
      target: targetOf(event.orderId, subscriptionId),
      payload: JSON.stringify(pushMessageOf(event)),
    })
  }
}
