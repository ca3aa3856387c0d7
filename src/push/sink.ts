// Where order events become pushes: each event of an order is handed, durably, to the `push` delivery
// channel once per subscription the order has when the event comes (the channel sends it, retries it,
// and keeps one order's events in order per subscription). A subscription made after its order ended
// is pushed that end at once. While Redis is away the subscriptions cannot be read: the event is held
// in this process, as the deliveries hold theirs, and handed on when Redis answers again.
import type { FastifyBaseLogger } from 'fastify'
import type { DeliveryChannel } from '../deliveries/types.js'
import type { Order } from '../upstream/schemas.js'
import type { OrderEvent } from '../watch/order-event.js'
import { isTerminal, pushMessageOf } from './message.js'
import { targetOf } from './sender.js'
import type { PushSubscriptions } from './subscriptions.js'

type Event = Parameters<typeof pushMessageOf>[0] & { id: string }

/** Events held through one outage at most: past this, the oldest is dropped. */
export const MAX_HELD = 10_000

export interface SinkDeps {
  store: PushSubscriptions
  channel: DeliveryChannel
  now: () => number
  /** False while the subscriptions' store is known unreachable: no hand-off waits on it then. */
  storeUp: () => boolean
  log: FastifyBaseLogger
}

export class PushSink {
  private held: OrderEvent[] = []
  /** The drop of held events is logged once per outage. */
  private dropping = false

  constructor(private readonly deps: SinkDeps) {}

  /** An order event, handed on to every subscription of its order (held while they cannot be read). */
  async handle(event: OrderEvent): Promise<void> {
    if (!this.deps.storeUp()) return this.hold(event)
    await this.handOn(event).catch(() => this.hold(event))
  }

  /**
   * What an outage held, handed on in the order it came, those held while this runs (the link is not
   * up yet) included; the first that fails stays, with those after it, for the next recovery.
   */
  async handOnHeld(): Promise<void> {
    this.dropping = false
    while (this.held.length > 0) {
      const event = this.held[0]!
      try {
        await this.handOn(event)
      } catch {
        return
      }
      // Unless the cap dropped it meanwhile, or a recovery running beside this one handed it on too
      // (the channel takes an event once per subscription, whoever hands it on).
      if (this.held[0] === event) this.held.shift()
    }
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
      timestamp: new Date(this.deps.now()).toISOString(),
      order,
    }
    await this.enqueue(event, subscriptionId)
  }

  private async handOn(event: OrderEvent) {
    const subscriptions = await this.deps.store.list(event.orderId)
    await Promise.all(subscriptions.map((s) => this.enqueue(event, s.id)))
  }

  private hold(event: OrderEvent) {
    if (this.held.length >= MAX_HELD) {
      this.held.shift()
      if (!this.dropping)
        this.deps.log.warn(
          `more than ${MAX_HELD} order events held for Web Push while Redis is unreachable: the oldest are dropped`,
        )
      this.dropping = true
    }
    this.held.push(event)
  }

  private enqueue(event: Event, subscriptionId: string) {
    return this.deps.channel.enqueue({
      eventId: event.id,
      eventType: event.type,
      orderId: event.orderId,
      target: targetOf(event.orderId, subscriptionId),
      payload: JSON.stringify(pushMessageOf(event)),
    })
  }
}
