// The watch's store without REDIS_URL: this process is the whole fleet, so every watch is its own and
// ends with it.
import type { OrderStatus } from '../upstream/schemas.js'
import type { OrderEvent } from './order-event.js'
import type { Origin, ReportResult, Watched, WatchStore } from './store.js'

export class MemoryWatchStore implements WatchStore {
  private readonly orders = new Map<string, Watched>()
  private readonly outbox = new Map<string, { event: OrderEvent; at: number }>()

  begin(orderId: string, deadline: number, origin: Origin) {
    let watched = this.orders.get(orderId)
    if (!watched) {
      watched = { orderId, deadline, last: null, origin }
      this.orders.set(orderId, watched)
    }
    return Promise.resolve({ ...watched, held: true })
  }

  claim(): Promise<Watched[]> {
    return Promise.resolve([])
  }

  renew(orderIds: string[]): Promise<string[]> {
    return Promise.resolve(orderIds)
  }

  release(): Promise<void> {
    return Promise.resolve()
  }

  end(orderId: string): Promise<void> {
    this.orders.delete(orderId)
    return Promise.resolve()
  }

  report(event: OrderEvent, expected: OrderStatus | null, now: number): Promise<ReportResult> {
    const watched = this.orders.get(event.orderId)
    const last = watched?.last ?? null
    if (!watched || last !== expected) return Promise.resolve({ won: false, last })
    watched.last = event.status
    this.outbox.set(event.id, { event, at: now })
    return Promise.resolve({ won: true })
  }

  baseline(orderId: string, status: OrderStatus): Promise<OrderStatus> {
    const watched = this.orders.get(orderId)
    if (watched) watched.last ??= status
    return Promise.resolve(watched?.last ?? status)
  }

  delivered(eventId: string): Promise<void> {
    this.outbox.delete(eventId)
    return Promise.resolve()
  }

  stale(olderThan: number, now: number, max: number): Promise<OrderEvent[]> {
    const taken: OrderEvent[] = []
    for (const record of this.outbox.values()) {
      if (taken.length >= max) break
      if (record.at > olderThan) continue
      record.at = now
      taken.push(record.event)
    }
    return Promise.resolve(taken)
  }

  census(): Promise<{ instances: number; watched: number }> {
    return Promise.resolve({ instances: 1, watched: this.orders.size })
  }

  leave(): Promise<void> {
    return Promise.resolve()
  }
}
