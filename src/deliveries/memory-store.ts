// Deliveries in this process (no REDIS_URL): the same meaning as the Redis store, and they die with
// the process (docs/notifications.md, "Deliveries").
import { type DeliveryRecord, type DeliveryStore, RETENTION_MS, type Settlement } from './record.js'

export class MemoryDeliveryStore implements DeliveryStore {
  /** (event, target) → when it may be enqueued again. */
  private readonly seen = new Map<string, number>()
  private readonly records = new Map<string, DeliveryRecord>()
  /** Queue heads → when they are due (or their lease ends). */
  private readonly due = new Map<string, number>()
  private readonly queues = new Map<string, string[]>()
  private readonly failedAt = new Map<string, number>()

  async add(record: DeliveryRecord): Promise<boolean> {
    const until = this.seen.get(record.id)
    if (until !== undefined && until > record.enqueuedAt) return false
    this.seen.set(record.id, record.enqueuedAt + RETENTION_MS)
    this.records.set(record.id, { ...record })
    const queue = this.queues.get(record.queue) ?? []
    queue.push(record.id)
    this.queues.set(record.queue, queue)
    if (queue.length === 1) this.due.set(record.id, record.dueAt)
    return true
  }

  async claim(now: number, leaseUntil: number, limit: number): Promise<DeliveryRecord[]> {
    this.forget(now)
    const ids = [...this.due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([id]) => id)
    for (const id of ids) this.due.set(id, leaseUntil)
    return ids.map((id) => ({ ...this.records.get(id)! }))
  }

  async settle(claimed: DeliveryRecord, settlement: Settlement, now: number): Promise<void> {
    const stored = this.records.get(claimed.id)
    if (stored?.state !== 'pending' || stored.attempts !== claimed.attempts) return
    if (settlement.kind === 'retry') {
      this.records.set(claimed.id, { ...settlement.record })
      this.due.set(claimed.id, settlement.record.dueAt)
      return
    }
    this.due.delete(claimed.id)
    if (settlement.kind === 'failed') {
      this.records.set(claimed.id, { ...settlement.record })
      this.failedAt.set(claimed.id, now)
    } else this.records.delete(claimed.id)
    const queue = (this.queues.get(claimed.queue) ?? []).filter((id) => id !== claimed.id)
    if (queue.length === 0) this.queues.delete(claimed.queue)
    else {
      this.queues.set(claimed.queue, queue)
      if (!this.due.has(queue[0]!)) this.due.set(queue[0]!, now)
    }
  }

  async list(state: 'pending' | 'failed', limit: number): Promise<DeliveryRecord[]> {
    const all = [...this.records.values()].filter((r) => r.state === state)
    if (state === 'pending') all.sort((a, b) => a.enqueuedAt - b.enqueuedAt)
    else all.sort((a, b) => this.failedAt.get(b.id)! - this.failedAt.get(a.id)!)
    return all.slice(0, limit).map((r) => ({ ...r }))
  }

  async requeue(id: string, now: number): Promise<boolean> {
    const record = this.records.get(id)
    if (record?.state !== 'failed') return false
    this.failedAt.delete(id)
    this.records.set(id, { ...record, state: 'pending', round: 0, dueAt: now })
    this.due.set(id, now)
    return true
  }

  async stats() {
    const pending = [...this.records.values()].filter((r) => r.state === 'pending')
    const oldest = pending.reduce<number | undefined>(
      (o, r) => Math.min(o ?? r.enqueuedAt, r.enqueuedAt),
      undefined,
    )
    return { pending: pending.length, oldestPendingAt: oldest }
  }

  /** Drops failed deliveries and remembered ids past retention. */
  private forget(now: number) {
    for (const [id, at] of this.failedAt) {
      if (at + RETENTION_MS > now) continue
      this.failedAt.delete(id)
      this.records.delete(id)
    }
    for (const [id, until] of this.seen) if (until <= now) this.seen.delete(id)
  }
}
