// The watch's store with REDIS_URL: shared by the fleet, so watches survive any one instance (and the
// restart of every instance), and each order is held by one instance at a time under a lease. Each
// step is one script (redis-scripts.ts): a report and its outbox record are written together or not at
// all. A command that fails (Redis down or slow) rejects; the watch tries again on its next round.
import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { RedisLink } from '../redis/plugin.js'
import type { OrderStatus } from '../upstream/schemas.js'
import { type OrderEvent, orderEventSchema } from './order-event.js'
import * as SCRIPTS from './redis-scripts.js'
import type { Origin, ReportResult, Watched, WatchStore } from './store.js'

type ScriptName = keyof typeof SCRIPTS
type Arg = string | number
type Run = (...args: Arg[]) => Promise<unknown>

const commandOf = (name: ScriptName) => `gatewayWatch${name}`
const status = (value: unknown) => (value === '' || value === null ? null : (value as OrderStatus))
const origin = (value: unknown): Origin => (value === 'created' ? 'created' : 'followed')

export class RedisWatchStore implements WatchStore {
  /** This process, as its leases and heartbeats name it. */
  readonly me = randomUUID()
  private readonly client: Redis

  constructor(
    link: RedisLink,
    private readonly prefix: string,
    private readonly leaseMs: number,
  ) {
    this.client = link.client
    // ioredis sends each script by its SHA and loads it on first use; one definition per connection.
    for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
      if (!(commandOf(name) in this.client))
        this.client.defineCommand(commandOf(name), { numberOfKeys: 0, lua: SCRIPTS[name] })
    }
  }

  async begin(orderId: string, deadline: number, from: Origin) {
    const [held, last, until, kept] = (await this.run(
      'BEGIN',
      orderId,
      deadline,
      this.me,
      this.leaseMs,
      from,
    )) as [number, string, string, string]
    return { orderId, held: held === 1, last: status(last), deadline: Number(until), origin: origin(kept) }
  }

  async claim(max: number, now: number): Promise<Watched[]> {
    const flat = (await this.run('CLAIM', this.me, this.leaseMs, max, now)) as string[]
    const claimed: Watched[] = []
    for (let i = 0; i < flat.length; i += 4) {
      claimed.push({
        orderId: flat[i]!,
        last: status(flat[i + 1]),
        deadline: Number(flat[i + 2]),
        origin: origin(flat[i + 3]),
      })
    }
    return claimed
  }

  async renew(orderIds: string[]): Promise<string[]> {
    if (orderIds.length === 0) return []
    return (await this.run('RENEW', this.me, this.leaseMs, ...orderIds)) as string[]
  }

  async release(orderIds: string[]): Promise<void> {
    if (orderIds.length > 0) await this.run('RELEASE', this.me, ...orderIds)
  }

  async end(orderId: string): Promise<void> {
    await this.run('END', orderId)
  }

  async report(event: OrderEvent, expected: OrderStatus | null, now: number): Promise<ReportResult> {
    const args = [event.orderId, expected ?? '', event.status, event.id, JSON.stringify(event), now]
    const [won, last] = (await this.run('REPORT', ...args)) as [number, string]
    return won === 1 ? { won: true } : { won: false, last: status(last) }
  }

  async baseline(orderId: string, current: OrderStatus): Promise<OrderStatus> {
    return (await this.run('BASELINE', orderId, current)) as OrderStatus
  }

  async delivered(eventId: string): Promise<void> {
    await this.run('DELIVERED', eventId)
  }

  async stale(olderThan: number, now: number, max: number): Promise<OrderEvent[]> {
    const found = (await this.run('STALE', olderThan, now, max)) as string[]
    return found.map((json) => orderEventSchema.parse(JSON.parse(json)))
  }

  async census(now: number): Promise<{ instances: number; watched: number }> {
    const [instances, watched] = (await this.run('CENSUS', this.me, now, now - this.leaseMs)) as [
      number,
      number,
    ]
    return { instances, watched }
  }

  async leave(): Promise<void> {
    await this.run('LEAVE', this.me)
  }

  /** The commands defineCommand added are not in ioredis's types: looked up by name. */
  private run(name: ScriptName, ...args: Arg[]): Promise<unknown> {
    const command = (this.client as unknown as Record<string, Run>)[commandOf(name)]!
    return command.call(this.client, this.prefix, ...args)
  }
}
