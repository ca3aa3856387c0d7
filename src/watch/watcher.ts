// The watch of this instance: the orders it holds, each followed on the status hub's one upstream
// subscription per order (as a feed member that is not a socket), and each change reported through the
// store's compare-and-set, then published on `orderEvents`. A round every `scanMs` renews the leases,
// ends watches past their deadline, retries what failed (Redis or the upstream away), re-publishes
// outbox records left behind by an instance that died, and takes unheld orders up to a fair share.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, Timer } from '../clock.js'
import { GatewayError } from '../errors.js'
import type { CreatedOrder } from '../orders/creations.js'
import type { FeedWatcher, OrderRead } from '../status-stream/feed.js'
import { rankOf } from '../status-stream/feed.js'
import { orderSchema, TERMINAL_STATUSES } from '../upstream/schemas.js'
import type { WatchCounts } from './metrics.js'
import { nextEvent, type OrderState } from './next-event.js'
import type { OrderEvent, OrderEvents } from './order-event.js'
import type { Origin, Watched, WatchStore } from './store.js'

export interface WatchTuning {
  /** How often the rounds run. */
  scanMs: number
  /** How often the leases are renewed: well within WATCH_LEASE_MS. */
  renewMs: number
  /** Most orders taken over in one round, so a round never outlasts a lease. */
  claimBatch: number
}

export const defaultWatchTuning = (leaseMs: number): WatchTuning => ({
  scanMs: Math.min(2_000, Math.floor(leaseMs / 3)),
  renewMs: Math.floor(leaseMs / 3),
  claimBatch: 500,
})

export interface WatcherOptions {
  store: WatchStore
  events: OrderEvents
  follow(orderId: string, read: OrderRead, watcher: FeedWatcher): () => void
  read(orderId: string): Promise<OrderRead>
  clock: Clock
  log: FastifyBaseLogger
  counts: WatchCounts
  /** WATCH_MAX_MS and WATCH_LEASE_MS. */
  maxMs: number
  leaseMs: number
  tuning: WatchTuning
}

interface Held extends OrderState {
  deadline: number
  /** The store knows the watch and leased it to us. */
  registered: boolean
  /** Something failed or moved unread: re-read the order and sync on the next round. */
  dirty: boolean
  gone: boolean
  unfollow: (() => void) | undefined
  /** Each order's steps run one at a time, in order. */
  work: Promise<void>
}

/** Concurrent reads when many orders are taken over at once. */
const TAKEOVER_CONCURRENCY = 32

export class OrderWatcher {
  private readonly held = new Map<string, Held>()
  private timer: Timer | undefined
  private lastRenew = 0
  private round: Promise<void> | undefined
  private closed = false

  constructor(private readonly opts: WatcherOptions) {}

  get size(): number {
    return this.held.size
  }

  start(): void {
    this.lastRenew = this.opts.clock.now()
    this.timer = this.opts.clock.setInterval(() => this.runRound(), this.opts.tuning.scanMs)
    this.timer.unref()
    this.runRound()
  }

  /** An order created here: its first event is `order.created`. */
  created(created: CreatedOrder): void {
    const parsed = orderSchema.safeParse(JSON.parse(created.body))
    if (!parsed.success) return this.opts.log.warn('created order does not match its schema: not watched')
    const read: OrderRead = {
      status: 201,
      body: parsed.data,
      raw: Buffer.from(created.body),
      headers: {},
      readAt: created.at,
    }
    this.begin('created', read)
  }

  /** Follows an order until it is terminal; resolves once the order is read (never waits on Redis). */
  async follow(orderId: string): Promise<void> {
    if (this.held.has(orderId) || this.closed) return
    const read = await this.opts.read(orderId)
    if (!TERMINAL_STATUSES.has(read.body.status)) this.begin('followed', read)
  }

  /** Phase 2 of the shutdown: every lease given back, so the others take the watches over at once. */
  async close(): Promise<void> {
    this.closed = true
    this.opts.clock.clearInterval(this.timer)
    await this.round
    const ids = [...this.held.values()].filter((h) => h.registered).map((h) => h.orderId)
    for (const h of [...this.held.values()]) this.drop(h)
    await this.opts.store.release(ids).catch(() => {})
    await this.opts.store.leave().catch(() => {})
  }

  private begin(origin: Origin, read: OrderRead): void {
    const orderId = read.body.uuid
    if (this.held.has(orderId) || this.closed) return
    const deadline = this.opts.clock.now() + this.opts.maxMs
    const h = this.hold({ orderId, origin, last: null, deadline }, read, false)
    if (origin === 'created') h.createdRead = read
    this.enqueue(h, () => this.register(h))
  }

  private hold(w: Omit<Watched, 'held'>, read: OrderRead, registered: boolean): Held {
    const h: Held = {
      ...w,
      seen: read,
      createdRead: undefined,
      registered,
      dirty: false,
      gone: false,
      unfollow: undefined,
      work: Promise.resolve(),
    }
    this.held.set(w.orderId, h)
    return h
  }

  private async register(h: Held): Promise<void> {
    const w = await this.opts.store.begin(h.orderId, h.deadline, h.origin)
    if (!w.held) return this.drop(h)
    Object.assign(h, { registered: true, deadline: w.deadline, last: w.last, origin: w.origin })
    this.attach(h)
    await this.sync(h)
  }

  private attach(h: Held): void {
    if (h.gone || h.unfollow || TERMINAL_STATUSES.has(h.seen.body.status)) return
    const watcher: FeedWatcher = { moved: (_status, read) => this.moved(h, read) }
    h.unfollow = this.opts.follow(h.orderId, h.seen, watcher)
  }

  /** The feed moved; without a read of that status, the order is read again on the next round. */
  private moved(h: Held, read: OrderRead | undefined): void {
    if (!read) h.dirty = true
    else if (rankOf(read.body.status) > rankOf(h.seen.body.status)) h.seen = read
    this.enqueue(h, () => this.sync(h))
  }

  /** Reports what the order owes, one compare-and-set at a time, and ends the watch once terminal. */
  private async sync(h: Held): Promise<void> {
    const { store, counts, clock } = this.opts
    while (!h.gone) {
      if (h.last === null && h.origin === 'followed') {
        h.last = await store.baseline(h.orderId, h.seen.body.status)
        continue
      }
      const event = nextEvent(h)
      if (!event) break
      const result = await store.report(event, h.last, clock.now())
      if (!result.won) {
        // The same last status back: the watch is no longer in the store (ended by another instance).
        if (result.last === h.last) return this.drop(h)
        h.last = result.last
        continue
      }
      h.last = event.status
      counts.reported(event.type)
      await this.publish(event)
    }
    if (h.last && TERMINAL_STATUSES.has(h.last)) await this.end(h)
  }

  private async publish(event: OrderEvent): Promise<void> {
    try {
      await this.opts.events.publish(event)
      await this.opts.store.delivered(event.id)
    } catch (err) {
      // Left in the outbox: re-published once it is stale, by whichever instance finds it.
      this.opts.log.warn(
        { err, event: event.id.slice(0, 8) },
        'order event not handed on yet; kept to publish again',
      )
    }
  }

  private async end(h: Held): Promise<void> {
    this.drop(h)
    await this.opts.store.end(h.orderId)
  }

  private drop(h: Held): void {
    h.gone = true
    h.unfollow?.()
    h.unfollow = undefined
    if (this.held.get(h.orderId) === h) this.held.delete(h.orderId)
  }

  private dropId(orderId: string): void {
    const h = this.held.get(orderId)
    if (h) this.drop(h)
  }

  private enqueue(h: Held, task: () => Promise<void>): void {
    h.work = h.work
      .then(() => (h.gone ? undefined : task()))
      .catch((err: unknown) => {
        h.dirty = true
        this.opts.log.debug({ err, order: h.orderId.slice(0, 8) }, 'watch step failed; retried next round')
      })
  }

  private runRound(): void {
    if (this.round || this.closed) return
    this.round = this.roundOnce()
      .catch((err: unknown) => this.opts.log.debug({ err }, 'watch round cut short; next round soon'))
      .finally(() => {
        this.round = undefined
      })
  }

  private async roundOnce(): Promise<void> {
    const { clock, store, tuning, leaseMs } = this.opts
    const now = clock.now()
    for (const h of this.held.values()) {
      if (now >= h.deadline) this.enqueue(h, () => this.end(h))
      else if (h.dirty) this.enqueue(h, () => this.refresh(h))
    }
    if (now - this.lastRenew >= tuning.renewMs) {
      // Only the orders asked about: one registered meanwhile was leased after the list was made.
      const asked = this.registeredIds()
      const mine = new Set(await store.renew(asked))
      this.lastRenew = now
      for (const id of asked) if (!mine.has(id)) this.dropId(id)
    }
    for (const event of await store.stale(now - leaseMs, now, tuning.claimBatch)) await this.publish(event)
    const { instances, watched } = await store.census(now)
    const room = Math.min(Math.ceil(watched / Math.max(1, instances)) - this.held.size, tuning.claimBatch)
    if (room <= 0 || this.closed) return
    const claimed = await store.claim(room, now)
    for (let i = 0; i < claimed.length; i += TAKEOVER_CONCURRENCY) {
      await Promise.all(claimed.slice(i, i + TAKEOVER_CONCURRENCY).map((w) => this.takeOver(w)))
    }
  }

  private registeredIds(): string[] {
    return [...this.held.values()].filter((h) => h.registered).map((h) => h.orderId)
  }

  /** A watch whose lease lapsed or was released: the order re-read first, so a missed change is reported. */
  private async takeOver(w: Watched): Promise<void> {
    let read: OrderRead
    try {
      read = await this.opts.read(w.orderId)
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'ORDER_NOT_FOUND') await this.opts.store.end(w.orderId)
      else await this.opts.store.release([w.orderId])
      return
    }
    if (this.closed) return void (await this.opts.store.release([w.orderId]))
    this.opts.counts.takeover()
    const h = this.held.get(w.orderId) ?? this.hold(w, read, true)
    Object.assign(h, { registered: true, seen: read })
    this.enqueue(h, async () => {
      this.attach(h)
      await this.sync(h)
    })
  }

  /** After a failure: the order read again, then registered or synced as it needs. */
  private async refresh(h: Held): Promise<void> {
    h.dirty = false
    const read = await this.opts.read(h.orderId)
    if (rankOf(read.body.status) > rankOf(h.seen.body.status)) h.seen = read
    if (!h.registered) return this.register(h)
    this.attach(h)
    await this.sync(h)
  }
}
