// Where the watch keeps what the fleet shares: the watched orders (each with the moment its watch
// ends), the last status reported for each, who holds each (a lease), and the outbox of reported
// events whose listeners have not yet resolved. In this process without REDIS_URL (memory-store.ts),
// in Redis with it (redis-store.ts). Reporting is a compare-and-set of the last reported status,
// written with its outbox record in one step: an event is reported once, and never lost after that.
import type { OrderStatus } from '../upstream/schemas.js'
import type { OrderEvent } from './order-event.js'

/** How a watch began: `created` when the gateway created the order (its first event is `order.created`). */
export type Origin = 'created' | 'followed'

export interface Watched {
  orderId: string
  /** When the watch ends, whatever the order's status (epoch ms). */
  deadline: number
  /** The last status reported for it; null before its first report. */
  last: OrderStatus | null
  origin: Origin
}

/** The answer to a report: it was recorded, or the last reported status had moved to `last`. */
export type ReportResult = { won: true } | { won: false; last: OrderStatus | null }

export interface WatchStore {
  /** Watches the order (an order already watched keeps its deadline); `held` when it leased it to us. */
  begin(orderId: string, deadline: number, origin: Origin): Promise<Watched & { held: boolean }>
  /** Leases up to `max` watched orders nobody holds, and ends the watches past their deadline. */
  claim(max: number, now: number): Promise<Watched[]>
  /** Extends our leases; resolves with the orders still ours. */
  renew(orderIds: string[]): Promise<string[]>
  release(orderIds: string[]): Promise<void>
  /** The watch is over (terminal, or past its deadline). */
  end(orderId: string): Promise<void>
  /** Records `status` as the order's last reported, if it still is `expected`, with `event` in the outbox. */
  report(event: OrderEvent, expected: OrderStatus | null, now: number): Promise<ReportResult>
  /** A followed order's status when its watch began: the baseline, not an event. Resolves with the last. */
  baseline(orderId: string, status: OrderStatus): Promise<OrderStatus>
  /** The event's listeners resolved: out of the outbox. */
  delivered(eventId: string): Promise<void>
  /** Outbox records older than `olderThan` (epoch ms), each taken for re-publication for a while. */
  stale(olderThan: number, now: number, max: number): Promise<OrderEvent[]>
  /** Says this instance is alive; resolves with the live instances and the orders watched by the fleet. */
  census(now: number): Promise<{ instances: number; watched: number }>
  /** This instance stops (SIGTERM): it no longer counts in the fleet's shares. */
  leave(): Promise<void>
}
