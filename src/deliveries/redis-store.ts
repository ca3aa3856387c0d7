// Deliveries in Redis (REDIS_URL): pending ones survive the restart of every instance, and a claim's
// lease keeps one instance at a time on each. Redis has a deadline (docs/operations.md): while it is
// unreachable nothing waits on it: enqueues and attempts' results are kept in this process and
// written when it answers again (the compare-and-set of `settle` makes a late write harmless), and no
// delivery is claimed meanwhile.
import type { RedisLink } from '../redis/plugin.js'
import { type DeliveryRecord, type DeliveryStore, RETENTION_MS, type Settlement } from './record.js'
import { CLAIM, ENQUEUE, REQUEUE, SETTLE } from './redis-scripts.js'

/** Writes kept for Redis at most: past this, the oldest is dropped (and logged by the caller's metrics). */
const MAX_UNWRITTEN = 100_000

type Unwritten =
  | { kind: 'add'; record: DeliveryRecord }
  | { kind: 'settle'; claimed: DeliveryRecord; settlement: Settlement; now: number }

export class RedisDeliveryStore implements DeliveryStore {
  private readonly unwritten: Unwritten[] = []

  constructor(
    private readonly link: RedisLink,
    /** The channel's own prefix in the deliveries key space. */
    private readonly prefix: string,
  ) {
    link.onRecovery(() => this.writeBack())
  }

  async add(record: DeliveryRecord): Promise<boolean> {
    if (!this.link.up) return this.keep({ kind: 'add', record })
    try {
      return (await this.addNow(record)) === 1
    } catch {
      return this.keep({ kind: 'add', record })
    }
  }

  async claim(now: number, leaseUntil: number, limit: number): Promise<DeliveryRecord[]> {
    if (!this.link.up || this.unwritten.length > 0) return []
    const args = [this.prefix, now, leaseUntil, limit, now - RETENTION_MS].map(String)
    const found = (await this.link.client.eval(CLAIM, 0, ...args)) as string[]
    return found.map((text) => JSON.parse(text) as DeliveryRecord)
  }

  async settle(claimed: DeliveryRecord, settlement: Settlement, now: number): Promise<void> {
    try {
      if (!this.link.up) throw new Error('redis unreachable')
      await this.settleNow(claimed, settlement, now)
    } catch {
      this.keep({ kind: 'settle', claimed, settlement, now })
    }
  }

  async list(state: 'pending' | 'failed', limit: number): Promise<DeliveryRecord[]> {
    const client = this.link.client
    const key = this.prefix + state
    const last = String(limit - 1)
    const ids =
      state === 'pending' ? await client.zrange(key, '0', last) : await client.zrevrange(key, '0', last)
    if (ids.length === 0) return []
    const texts = await client.hmget(`${this.prefix}records`, ...ids)
    return texts.flatMap((text) => (text ? [JSON.parse(text) as DeliveryRecord] : []))
  }

  async requeue(id: string, now: number): Promise<boolean> {
    return (await this.link.client.eval(REQUEUE, 0, this.prefix, id, String(now))) === 1
  }

  async stats() {
    const key = `${this.prefix}pending`
    const [pending, oldest] = await Promise.all([
      this.link.client.zcard(key),
      this.link.client.zrange(key, '0', '0', 'WITHSCORES'),
    ])
    return { pending, oldestPendingAt: oldest[1] === undefined ? undefined : Number(oldest[1]) }
  }

  private addNow(record: DeliveryRecord) {
    const { id, queue, dueAt, enqueuedAt } = record
    const args = [this.prefix, id, JSON.stringify(record), queue, dueAt, enqueuedAt, RETENTION_MS].map(String)
    return this.link.client.eval(ENQUEUE, 0, ...args)
  }

  private settleNow(claimed: DeliveryRecord, settlement: Settlement, now: number) {
    const next = settlement.kind === 'done' ? undefined : settlement.record
    const args = [
      this.prefix,
      claimed.id,
      claimed.attempts,
      settlement.kind,
      next ? JSON.stringify(next) : '',
      next?.dueAt ?? now,
      now,
      claimed.queue,
    ].map(String)
    return this.link.client.eval(SETTLE, 0, ...args)
  }

  /** Taken as new: the write-back's enqueue is idempotent, so an event seen before is still sent once. */
  private keep(write: Unwritten): true {
    if (this.unwritten.length >= MAX_UNWRITTEN) this.unwritten.shift()
    this.unwritten.push(write)
    return true
  }

  /** In the order they were taken; one that fails again stays, with those after it, for the next recovery. */
  private async writeBack() {
    while (this.unwritten.length > 0) {
      const write = this.unwritten[0]!
      if (write.kind === 'add') await this.addNow(write.record)
      else await this.settleNow(write.claimed, write.settlement, write.now)
      this.unwritten.shift()
    }
  }
}
