// One order's feed: the clients watching it and the one upstream subscription they share. Upstream
// events are re-sent with the re-read order; after every (re)open or poll the order is re-read and a
// status the clients have not seen yet is sent as a catch-up event. Statuses only move forward, so a
// client is sent a status only when it is further along than the last one it got: no duplicates, no
// step back, and a client whose snapshot is older than the feed is brought up to date when it joins.
import type { EventSourceMessage } from 'eventsource-parser'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import type { OrderReader } from '../orders/read.js'
import { eventFrame } from '../sse/frames.js'
import type { StreamClient, StreamGroup } from '../sse/registry.js'
import { type OrderStatus, statusUpdateSchema, TERMINAL_STATUSES } from '../upstream/schemas.js'
import { eventId } from './event-ids.js'
import { STATUS_EVENT } from './events.js'
import { type SubscriptionDeps, type SubscriptionTuning, UpstreamSubscription } from './subscription.js'

export type OrderRead = Awaited<ReturnType<OrderReader['read']>>

/**
 * A member of a feed that is not a socket (the watch): told each status the feed moves to, with the
 * read that found it (undefined when the order could not be read up to that status).
 */
export interface FeedWatcher {
  moved(status: OrderStatus, read: OrderRead | undefined): void
}

/** How far along the lifecycle a status is; every transition moves to a higher rank. */
const RANK: Record<OrderStatus, number> = {
  AWAITING_USER_DEPOSIT: 0,
  AWAITING_USER_DEPOSIT_CONFIRMATIONS: 1,
  PROCESSING: 2,
  COMPLETED: 3,
  ERROR: 3,
  TIMED_OUT: 3,
}
export const rankOf = (status: OrderStatus): number => RANK[status]

/** A status stream's client: what every stream holds, and how far along its order it has been told. */
export interface StatusClient extends StreamClient {
  /** Rank of the last status this client was sent (its snapshot's, at first). */
  rank: number
}

/** What a feed needs from its hub. */
export interface FeedHost {
  clock: Clock
  tuning: SubscriptionTuning
  random: () => number
  log: FastifyBaseLogger
  read(uuid: string): Promise<OrderRead>
  /** `urgent`: a client reads the stream, so its opening goes before the watch's. */
  openUpstream: (uuid: string, signal: AbortSignal, urgent: boolean) => ReturnType<SubscriptionDeps['open']>
  deliver(client: StatusClient, frame: Buffer): void
  /** Sends one client its last event and ends its stream. */
  finish(client: StatusClient, last: Buffer): void
  ended(feed: OrderFeed): void
  counted(what: 'reconnects' | 'polls'): void
}

/** Reads that may lag behind an event (a read already in flight was joined) are retried this often. */
const FRESH_READ_ATTEMPTS = 3

export class OrderFeed implements StreamGroup {
  readonly clients = new Set<StatusClient>()
  private readonly watchers = new Set<FeedWatcher>()
  private rank: number
  /** The frame that brings a client to the feed's current status, built when first needed. */
  private current: Buffer | undefined
  private work: Promise<void> = Promise.resolve()
  private ended = false
  private started = false
  private readonly subscription: UpstreamSubscription
  private readonly log: FastifyBaseLogger

  constructor(
    readonly uuid: string,
    private latest: OrderRead,
    private readonly host: FeedHost,
  ) {
    this.rank = rankOf(latest.body.status)
    this.log = host.log
    this.subscription = new UpstreamSubscription(
      {
        open: (signal) => host.openUpstream(uuid, signal, this.clients.size > 0),
        clock: host.clock,
        tuning: host.tuning,
        random: host.random,
        log: host.log,
      },
      {
        opened: () => this.catchUp(),
        event: (message) => this.onEvent(message),
        poll: () => {
          host.counted('polls')
          this.catchUp()
        },
        reopening: () => host.counted('reconnects'),
      },
    )
  }

  /** The subscription starts with the first member, so its opening knows whether a client waits. */
  private start(): void {
    if (this.started) return
    this.started = true
    this.subscription.start()
  }

  join(client: StatusClient, read: OrderRead): void {
    client.group = this
    client.rank = rankOf(read.body.status)
    this.clients.add(client)
    this.start()
    if (client.rank < this.rank) {
      client.rank = this.rank
      this.host.deliver(client, this.currentFrame())
    }
  }

  leave(client: StreamClient): void {
    this.clients.delete(client as StatusClient)
    client.group = undefined
    this.closeWhenAlone()
  }

  /** A watcher that knows the order as `read` found it; told at once when the feed is further along. */
  watch(watcher: FeedWatcher, read: OrderRead): void {
    this.watchers.add(watcher)
    this.start()
    const latest = this.latest.body.status
    if (rankOf(read.body.status) < rankOf(latest)) watcher.moved(latest, this.latest)
  }

  unwatch(watcher: FeedWatcher): void {
    if (this.watchers.delete(watcher)) this.closeWhenAlone()
  }

  private closeWhenAlone(): void {
    if (this.clients.size === 0 && this.watchers.size === 0) this.close()
  }

  get polling(): boolean {
    return this.subscription.polling
  }

  checkIdle(now: number): void {
    this.subscription.checkIdle(now)
  }

  close(): void {
    if (this.ended) return
    this.ended = true
    // Let go of the upstream connection on the next turn: closing it costs more than sending the last
    // event to a hundred clients, and a terminal status often reaches many orders at once.
    setImmediate(() => this.subscription.close())
    this.host.ended(this)
  }

  private onEvent(message: EventSourceMessage): void {
    if (message.event !== STATUS_EVENT) return
    this.enqueue(async () => {
      const parsed = statusUpdateSchema.safeParse(safeJson(message.data))
      if (!parsed.success || parsed.data.orderId !== this.uuid) {
        // We cannot trust this event, but something happened: find out from the order itself.
        this.log.warn('upstream status event does not match its documented shape; re-reading the order')
        return this.readAndCatchUp()
      }
      const update = parsed.data
      if (rankOf(update.status) <= this.rank) return
      const read = await this.freshRead(update.status)
      const data = read ? { ...update, order: read.body } : update
      const id = eventId(message.id ?? String(read?.readAt ?? this.host.clock.now()), update.status)
      const fresh = read && rankOf(read.body.status) >= rankOf(update.status) ? read : undefined
      if (fresh) this.latest = fresh
      const frame = eventFrame({ event: STATUS_EVENT, id, data: JSON.stringify(data) })
      this.publish(update.status, frame, fresh)
    })
  }

  private catchUp(): void {
    this.enqueue(() => this.readAndCatchUp())
  }

  private async readAndCatchUp(): Promise<void> {
    const read = await this.tryRead()
    if (!read || rankOf(read.body.status) <= this.rank) return
    this.latest = read
    this.current = undefined
    this.publish(read.body.status, this.currentFrame(), read)
  }

  /** A status-update for the latest read, stamped with the moment of that read. */
  private currentFrame(): Buffer {
    this.current ??= catchUpFrame(this.latest)
    return this.current
  }

  private publish(status: OrderStatus, frame: Buffer, read: OrderRead | undefined): void {
    if (this.ended) return
    const rank = rankOf(status)
    this.rank = rank
    this.current = frame
    for (const watcher of this.watchers) watcher.moved(status, read)
    if (TERMINAL_STATUSES.has(status)) {
      for (const client of [...this.clients]) this.host.finish(client, frame)
      this.close()
      return
    }
    for (const client of this.clients) {
      if (client.rank >= rank) continue
      client.rank = rank
      this.host.deliver(client, frame)
    }
  }

  /** Events are handled one at a time, in arrival order, so a slow re-read never reorders them. */
  private enqueue(task: () => Promise<void>): void {
    this.work = this.work
      .then(() => (this.ended ? undefined : task()))
      .catch((err: unknown) => this.log.error({ err }, 'status feed task failed'))
  }

  private async freshRead(status: OrderStatus): Promise<OrderRead | undefined> {
    let read: OrderRead | undefined
    for (let attempt = 0; attempt < FRESH_READ_ATTEMPTS; attempt++) {
      read = await this.tryRead()
      if (!read || rankOf(read.body.status) >= rankOf(status)) break
    }
    return read
  }

  private async tryRead(): Promise<OrderRead | undefined> {
    try {
      return await this.host.read(this.uuid)
    } catch (err) {
      this.log.warn({ code: (err as { code?: unknown }).code }, 'could not re-read the order')
      return undefined
    }
  }
}

/** A status-update for the order as `read` found it, stamped with the moment of that read. */
export function catchUpFrame(read: OrderRead): Buffer {
  const order = read.body
  const data = {
    orderId: order.uuid,
    status: order.status,
    message: 'order update',
    updatedAt: new Date(read.readAt).toISOString(),
    order,
  }
  const id = eventId(String(read.readAt), order.status)
  return eventFrame({ event: STATUS_EVENT, id, data: JSON.stringify(data) })
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
