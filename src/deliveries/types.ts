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

/** What became of a delivery after an attempt: the figure a channel's metrics count. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed' | 'gone'

export interface ChannelOptions {
  name: 'webhook' | 'push'
  /** Delays between attempts; after the last one the delivery has failed. */
  scheduleMs: readonly number[]
  send(delivery: Delivery): Promise<AttemptOutcome>
  /** How long one instance holds a claimed delivery before another may send it: above the sender's deadline. */
  leaseMs?: number
  /** Told of each attempt's result (metrics, logs). */
  onOutcome?(outcome: DeliveryOutcome, delivery: Delivery, answer: string): void
}

/** A pending or failed delivery as the operator's endpoints list it. */
export interface DeliveryView {
  eventId: string
  eventType: string
  orderId: string
  target: string
  state: 'pending' | 'failed'
  attempts: number
  /** The last answer or error; null before the first attempt. */
  lastAnswer: string | null
  /** Epoch ms of the next attempt; null once failed. */
  nextAttemptAt: number | null
  enqueuedAt: number
}

export interface ChannelStats {
  pending: number
  /** Epoch ms the oldest pending delivery was enqueued; undefined when none is pending. */
  oldestPendingAt: number | undefined
}

export interface DeliveryChannel {
  enqueue(request: DeliveryRequest): Promise<void>
  /** Pending (oldest first) or failed (newest first) deliveries, at most LIST_LIMIT. */
  list(state: 'pending' | 'failed'): Promise<DeliveryView[]>
  /** Sends a failed delivery again at once, with its schedule started over; false when none failed. */
  retry(eventId: string, target: string): Promise<boolean>
  /** The latest figures (read at scrape time: never waits on Redis). */
  stats(): ChannelStats
}

export interface Deliveries {
  channel(options: ChannelOptions): DeliveryChannel
  /**
   * Every channel looks for due deliveries now and settles what it found: resolves once nothing is in
   * flight, so what is not sent by then waits for the clock to move or a new event (the point a test
   * checks that nothing more was sent).
   */
  idle(): Promise<void>
}
