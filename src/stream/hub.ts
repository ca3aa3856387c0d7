// The status hub: every open status stream of this process, grouped by order into feeds (one
// upstream subscription per order, shared by all its clients), the stream limits, one heartbeat timer
// for all clients, and a clean end of every stream on shutdown.
import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import { shortenIds } from '../edge/shorten-ids.js'
import { GatewayError } from '../errors.js'
import type { OrderReader } from '../orders/read.js'
import type { UpstreamClient } from '../upstream/client.js'
import { TERMINAL_STATUSES } from '../upstream/schemas.js'
import { SNAPSHOT_EVENT } from './events.js'
import { eventId } from './event-ids.js'
import { catchUpFrame, type FeedHost, OrderFeed, type OrderRead, type StreamClient } from './feed.js'
import { commentFrame, eventFrame } from './frames.js'
import { jitteredRetry, spreadOver } from './spread.js'
import type { SubscriptionTuning } from './subscription.js'

export interface StreamTuning extends SubscriptionTuning {
  /** A client that lets this much pile up unread is too slow to follow; its stream is dropped. */
  maxBufferedBytes: number
}

export const DEFAULT_STREAM_TUNING: StreamTuning = {
  reopenBaseMs: 250,
  reopenCapMs: 30_000,
  stableMs: 1_000,
  pollMs: 5_000,
  upstreamIdleMs: 70_000,
  maxEventBytes: 1024 * 1024,
  maxBufferedBytes: 256 * 1024,
}

export interface HubOptions {
  clock: Clock
  log: FastifyBaseLogger
  reader: OrderReader
  upstream: UpstreamClient
  /** Deadline for each upstream operation the hub makes on its own (re-reads, opening a stream). */
  upstreamTimeoutMs: number
  heartbeatMs: number
  maxPerIp: number
  maxTotal: number
  /** Base of the `retry:` advice sent with each snapshot, jittered per stream (spread.ts). */
  retryMs: number
  /** How widely the ends of the streams are spread at shutdown (already bounded by the deadline). */
  drainWindowMs: number
  tuning: StreamTuning
  random: () => number
}

export interface StreamStats {
  openStreams: number
  upstreamSubscriptions: number
  /** Subscriptions whose upstream stream cannot be opened, so their order is polled instead. */
  polling: number
  reconnects: number
  polls: number
  eventsSent: number
}

const HEARTBEAT = commentFrame('heartbeat')
const GOODBYE = commentFrame('server shutting down; reconnect')
/** Streams ended per turn of the event loop. */
const END_BATCH = 100

export class StatusHub {
  private readonly feeds = new Map<string, OrderFeed>()
  private readonly perIp = new Map<string, number>()
  /** Admitted streams, including those still reading their order: what the limits count. */
  private admitted = 0
  private open = 0
  private reconnects = 0
  private polls = 0
  private eventsSent = 0
  private closing = false
  private readonly heartbeat: NodeJS.Timeout
  /** Streams whose last frame is sent, waiting to be ended. */
  private readonly ending: StreamClient[] = []

  constructor(private readonly opts: HubOptions) {
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs)
    this.heartbeat.unref()
  }

  /** Takes a place for a new stream, or refuses it: per client IP first, then in total. */
  admit(ip: string): StreamClient {
    const retryAfter = Math.max(1, Math.ceil(this.opts.retryMs / 1000))
    const retry = { members: { retryAfter }, headers: { 'retry-after': String(retryAfter) } }
    const mine = this.perIp.get(ip) ?? 0
    if (mine >= this.opts.maxPerIp) {
      throw new GatewayError(
        'RATE_LIMITED',
        `At most ${this.opts.maxPerIp} status streams may be open per client.`,
        retry,
      )
    }
    if (this.admitted >= this.opts.maxTotal) {
      throw new GatewayError(
        'SERVICE_UNAVAILABLE',
        'The gateway has no room for another status stream now.',
        retry,
      )
    }
    this.perIp.set(ip, mine + 1)
    this.admitted++
    return { ip, res: undefined, rank: -1, feed: undefined, released: false }
  }

  /** True once shutdown has begun: a stream attached now gets its snapshot and an end. */
  get draining(): boolean {
    return this.closing
  }

  /** Gives the place back; safe to call more than once. */
  release(client: StreamClient): void {
    if (client.released) return
    client.released = true
    this.admitted--
    const left = (this.perIp.get(client.ip) ?? 1) - 1
    if (left > 0) this.perIp.set(client.ip, left)
    else this.perIp.delete(client.ip)
    if (client.res) this.open--
    client.feed?.leave(client)
    client.res = undefined
  }

  /**
   * Takes over a response whose headers are written: the snapshot first, then either the end (a
   * terminal order: after its terminal update too when the client `missedEnd`) or the order's feed.
   */
  attach(client: StreamClient, uuid: string, res: ServerResponse, read: OrderRead, missedEnd = false): void {
    if (res.destroyed) {
      this.release(client)
      return
    }
    client.res = res
    this.open++
    res.once('close', () => this.release(client))
    const snapshot = eventFrame({
      retry: jitteredRetry(this.opts.retryMs, this.opts.random),
      event: SNAPSHOT_EVENT,
      id: eventId(String(read.readAt), read.body.status),
      data: read.raw.toString('utf8'),
    })
    if (TERMINAL_STATUSES.has(read.body.status)) {
      this.finish(client, missedEnd ? Buffer.concat([snapshot, catchUpFrame(read)]) : snapshot)
      return
    }
    if (this.closing) {
      // A late stream on a draining instance (on a connection already open): a refusal would stop an
      // EventSource for good, so it gets its snapshot and an end, and reconnects to another instance.
      this.finish(client, Buffer.concat([snapshot, GOODBYE]), false)
      return
    }
    this.deliver(client, snapshot)
    let feed = this.feeds.get(uuid)
    if (!feed) {
      feed = new OrderFeed(uuid, read, this.feedHost(uuid))
      this.feeds.set(uuid, feed)
    }
    feed.join(client, read)
  }

  stats(): StreamStats {
    return {
      openStreams: this.open,
      upstreamSubscriptions: this.feeds.size,
      polling: countPolling(this.feeds.values()),
      reconnects: this.reconnects,
      polls: this.polls,
      eventsSent: this.eventsSent,
    }
  }

  /**
   * Ends every stream, each at its own random moment of the drain window (EventSource clients then
   * reconnect, to another instance, not all in the same instant), and with the last client of an
   * order its subscription. Until its moment comes a stream keeps getting its events and heartbeats.
   */
  async shutdown(): Promise<void> {
    this.closing = true
    const clients = [...this.feeds.values()].flatMap((feed) => [...feed.clients])
    await spreadOver(clients, this.opts.drainWindowMs, this.opts.random, (client) => {
      if (client.feed) this.finish(client, GOODBYE, false)
    })
    clearInterval(this.heartbeat)
    for (const feed of [...this.feeds.values()]) feed.close()
    // close() waits for open responses: end them all now.
    for (const client of this.ending.splice(0)) end(client)
  }

  private deliver(client: StreamClient, frame: Buffer, counted = true): void {
    const res = client.res
    if (!res || res.destroyed) return
    res.write(frame)
    if (counted) this.eventsSent++
    if (res.writableLength > this.opts.tuning.maxBufferedBytes) {
      this.opts.log.info('status stream client is not reading; dropping it')
      res.destroy()
    }
  }

  /**
   * Sends a stream's last frame now and ends the stream soon after. Ending costs more than writing
   * (the request's log line and metrics run then), so the ends are queued and done in batches that
   * yield to I/O: after a terminal status, the event reaches the clients of every order first.
   */
  private finish(client: StreamClient, last: Buffer, isEvent = true): void {
    client.feed?.leave(client)
    this.deliver(client, last, isEvent)
    this.ending.push(client)
    if (this.ending.length === 1) setImmediate(() => this.endQueued())
  }

  private endQueued(): void {
    for (const client of this.ending.splice(0, END_BATCH)) end(client)
    if (this.ending.length > 0) setImmediate(() => this.endQueued())
  }

  private beat(): void {
    const now = this.opts.clock.now()
    for (const feed of this.feeds.values()) {
      feed.checkIdle(now)
      for (const client of feed.clients) this.deliver(client, HEARTBEAT, false)
    }
  }

  private feedHost(uuid: string): FeedHost {
    const { clock, tuning, upstream, reader, upstreamTimeoutMs } = this.opts
    const log = this.opts.log.child({ order: shortenIds(uuid) })
    // Each hub operation gets its own deadline: the subscription outlives any client request.
    const context = () => ({ requestId: randomUUID(), log, deadline: clock.now() + upstreamTimeoutMs })
    return {
      clock,
      tuning,
      random: this.opts.random,
      log,
      read: (id) => reader.read(context(), id),
      openUpstream: (id, signal) =>
        upstream.openStream(context(), `/orders/${encodeURIComponent(id)}/status-stream`, signal),
      deliver: (client, frame) => this.deliver(client, frame),
      finish: (client, last) => this.finish(client, last),
      ended: (feed) => {
        if (this.feeds.get(feed.uuid) === feed) this.feeds.delete(feed.uuid)
      },
      counted: (what) => {
        this[what]++
      },
    }
  }
}

function end(client: StreamClient): void {
  const res = client.res
  if (res && !res.destroyed && !res.writableEnded) res.end()
}

function countPolling(feeds: Iterable<OrderFeed>): number {
  let n = 0
  for (const feed of feeds) if (feed.polling) n++
  return n
}
