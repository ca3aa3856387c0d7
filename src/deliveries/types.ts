// The durable delivery of order events to targets a stranger's server answers for (webhook URLs, push
// endpoints): one channel per kind, each with its own retry schedule and sender. Enqueueing is
// idempotent by (event id, target), so an event handed on twice is delivered once.

/** What one attempt came to, as the channel's sender judged the answer. */
export type AttemptOutcome =
  | { kind: 'delivered'; answer: string }
  /** Tried again at the next delay of the schedule, or after `retryAfterMs` when that is longer. */
  | { kind: 'retry'; answer: string; retryAfterMs?: number }
  /** The target is gone (a webhook's 410, a push service's 404 or 410): the delivery ends at once. */
  | { kind: 'gone'; answer: string }

export interface DeliveryRequest {
  eventId: string
  eventType: string
  orderId: string
  /** A webhook URL, or a push subscription's key: per target, one order's events go out in order. */
  target: string
  /** The body to send, ready made. */
  payload: string
}

export interface Delivery extends DeliveryRequest {
  /** Attempts made so far (0 on the first). */
  attempts: number
}

export interface ChannelOptions {
  name: 'webhook' | 'push'
  /** Delays between attempts; after the last one the delivery has failed. */
  scheduleMs: readonly number[]
  send(delivery: Delivery): Promise<AttemptOutcome>
}

export interface DeliveryChannel {
  enqueue(request: DeliveryRequest): Promise<void>
}

export interface Deliveries {
  channel(options: ChannelOptions): DeliveryChannel
}
