// The status hub: every open order status stream of this process, grouped by order into feeds (one
// upstream subscription per order, shared by all its clients). The limits, heartbeat, ends and
// shutdown are those of every SSE stream of the process (sse/registry.ts).
import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import { shortenIds } from '../edge/shorten-ids.js'
import type { OrderReader } from '../orders/read.js'
import { eventFrame } from '../sse/frames.js'
import type { SseRegistry, StreamSource } from '../sse/registry.js'
import type { CallContext, UpstreamClient } from '../upstream/client.js'
import { TERMINAL_STATUSES } from '../upstream/schemas.js'
import { SNAPSHOT_EVENT } from './events.js'
import { eventId } from './event-ids.js'
import {
  catchUpFrame,
  type FeedHost,
  type FeedWatcher,
  OrderFeed,
  type OrderRead,
  type StatusClient,
} from './feed.js'
import type { SubscriptionTuning } from './subscription.js'

export interface HubOptions {
  clock: Clock
  log: FastifyBaseLogger
  reader: OrderReader
  upstream: UpstreamClient
  /** The context of each upstream operation the hub makes on its own (re-reads, opening a stream). */
  contextFor(requestId: string, log: FastifyBaseLogger): CallContext
  /** Every SSE stream of the process: limits, heartbeat, ends. */
  streams: SseRegistry
  tuning: SubscriptionTuning
  random: () => number
}

export interface StreamStats {
  openStreams: number
  /** Streams admitted whose order is still being read: they hold a place, and have no event yet. */
  preparing: number
  upstreamSubscriptions: number
  /** Subscriptions whose upstream stream cannot be opened, so their order is polled instead. */
  polling: number
  reconnects: number
  polls: number
  eventsSent: number
}

export class StatusHub implements StreamSource {
  private readonly feeds = new Map<string, OrderFeed>()
  private reconnects = 0
  private polls = 0

  constructor(private readonly opts: HubOptions) {
    opts.streams.register(this)
  }

  /**
   * Takes over a response whose headers are written: the snapshot first, then either the end (a
   * terminal order: after its terminal update too when the client `missedEnd`) or the order's feed.
   */
  attach(client: StatusClient, uuid: string, res: ServerResponse, read: OrderRead, missedEnd = false): void {
    const { streams } = this.opts
    if (!streams.attach(client, res)) return
    const snapshot = eventFrame({
      retry: streams.retryAdvice(),
      event: SNAPSHOT_EVENT,
      id: eventId(String(read.readAt), read.body.status),
      data: read.raw.toString('utf8'),
    })
    if (TERMINAL_STATUSES.has(read.body.status)) {
      streams.finish(client, missedEnd ? Buffer.concat([snapshot, catchUpFrame(read)]) : snapshot)
      return
    }
    if (streams.draining) {
      streams.farewell(client, snapshot)
      return
    }
    streams.deliver(client, snapshot)
    this.feedOf(uuid, read).join(client, read)
  }

  /**
   * Follows a non-terminal order for a member that is not a socket (the watch), on the same upstream
   * subscription as the order's status streams. Returns how to stop following.
   */
  follow(uuid: string, read: OrderRead, watcher: FeedWatcher): () => void {
    const feed = this.feedOf(uuid, read)
    feed.watch(watcher, read)
    return () => feed.unwatch(watcher)
  }

  private feedOf(uuid: string, read: OrderRead): OrderFeed {
    let feed = this.feeds.get(uuid)
    if (!feed) {
      feed = new OrderFeed(uuid, read, this.feedHost(uuid))
      this.feeds.set(uuid, feed)
    }
    return feed
  }

  stats(): StreamStats {
    return {
      openStreams: this.opts.streams.openOf('status'),
      preparing: this.opts.streams.preparingOf('status'),
      upstreamSubscriptions: this.feeds.size,
      polling: countPolling(this.feeds.values()),
      reconnects: this.reconnects,
      polls: this.polls,
      eventsSent: this.opts.streams.sentOf('status'),
    }
  }

  groups(): Iterable<OrderFeed> {
    return this.feeds.values()
  }

  beat(now: number): void {
    for (const feed of this.feeds.values()) feed.checkIdle(now)
  }

  /** At shutdown, after every client has been sent its goodbye: the subscriptions left. */
  close(): void {
    for (const feed of [...this.feeds.values()]) feed.close()
  }

  private feedHost(uuid: string): FeedHost {
    const { clock, tuning, upstream, reader, contextFor, streams } = this.opts
    const log = this.opts.log.child({ order: shortenIds(uuid) })
    // Each hub operation gets its own deadline: the subscription outlives any client request.
    const context = () => contextFor(randomUUID(), log)
    return {
      clock,
      tuning,
      random: this.opts.random,
      log,
      read: (id) => reader.read(context(), id),
      openUpstream: (id, signal, urgent) =>
        upstream.openStream(context, `/orders/${encodeURIComponent(id)}/status-stream`, signal, urgent),
      deliver: (client, frame) => streams.deliver(client, frame),
      finish: (client, last) => streams.finish(client, last),
      ended: (feed) => {
        if (this.feeds.get(feed.uuid) === feed) this.feeds.delete(feed.uuid)
      },
      counted: (what) => {
        this[what]++
      },
    }
  }
}

function countPolling(feeds: Iterable<OrderFeed>): number {
  let n = 0
  for (const feed of feeds) if (feed.polling) n++
  return n
}
