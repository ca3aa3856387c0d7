// The SSE stream registry: every open Server-Sent Events stream of this process, whatever it follows
// (an order's status, a live quote, a wallet's orders). Routes admit and release their streams here,
// under the stream limits per client IP and in total (every kind counts against the same limits); it
// owns one heartbeat timer for all, the drop of a client that stops reading, ends done in batches, and
// at shutdown every stream ended at its own moment of the drain window. What a stream carries is its
// hub's business (status-stream/, live-quote/, wallet-stream/); each hub is a source of groups.
import type { ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, Timer } from '../clock.js'
import { problems } from '../problems.js'
import { commentFrame } from './frames.js'
import { jitteredRetry, spreadOver } from './spread.js'

export type StreamKind = 'status' | 'quote' | 'wallet'

/** Per-client state, kept tiny: ten thousand of these must fit in a few hundred kilobytes. */
export interface StreamClient {
  readonly ip: string
  readonly kind: StreamKind
  res: ServerResponse | undefined
  /** The group (an order's feed, a quote's poll) whose events this stream gets. */
  group: StreamGroup | undefined
  released: boolean
}

/** Streams that follow one thing together. */
export interface StreamGroup {
  readonly clients: ReadonlySet<StreamClient>
  leave(client: StreamClient): void
}

/** A hub: the groups it holds, seen by the heartbeat and the shutdown. */
export interface StreamSource {
  groups(): Iterable<StreamGroup>
  /** Called on every heartbeat, before the comments go out. */
  beat?(now: number): void
  /** At shutdown, once every stream has been sent its goodbye: let go of what is left. */
  close(): void
}

export interface SseRegistryOptions {
  clock: Clock
  log: FastifyBaseLogger
  heartbeatMs: number
  maxPerIp: number
  maxTotal: number
  /** Base of the `retry:` advice, jittered per stream (spread.ts). */
  retryMs: number
  /** How widely the ends of the streams are spread at shutdown (already bounded by the deadline). */
  drainWindowMs: number
  /** A client that lets this much pile up unread is too slow to follow; its stream is dropped. */
  maxBufferedBytes: number
  random: () => number
}

const HEARTBEAT = commentFrame('heartbeat')
const GOODBYE = commentFrame('server shutting down; reconnect')
/** Streams ended per turn of the event loop. */
const END_BATCH = 100

export class SseRegistry {
  private readonly perIp = new Map<string, number>()
  /** Admitted streams by kind, including those still preparing their first event: what the limits count. */
  private readonly admittedOf: Record<StreamKind, number> = { status: 0, quote: 0, wallet: 0 }
  private readonly open: Record<StreamKind, number> = { status: 0, quote: 0, wallet: 0 }
  private readonly sent: Record<StreamKind, number> = { status: 0, quote: 0, wallet: 0 }
  private closing = false
  private readonly sources: StreamSource[] = []
  private readonly heartbeat: Timer
  /** Streams whose last frame is sent, waiting to be ended. */
  private readonly ending: StreamClient[] = []

  constructor(private readonly opts: SseRegistryOptions) {
    this.heartbeat = opts.clock.setInterval(() => this.beat(), opts.heartbeatMs)
    this.heartbeat.unref()
  }

  register(source: StreamSource): void {
    this.sources.push(source)
  }

  /** Takes a place for a new stream, or refuses it: per client IP first, then in total. */
  admit<T extends object>(ip: string, kind: StreamKind, own: T): StreamClient & T {
    const retryAfter = Math.max(1, Math.ceil(this.opts.retryMs / 1000))
    const mine = this.perIp.get(ip) ?? 0
    if (mine >= this.opts.maxPerIp) throw problems.tooManyStreams(this.opts.maxPerIp, retryAfter)
    const { status, quote, wallet } = this.admittedOf
    if (status + quote + wallet >= this.opts.maxTotal) throw problems.noRoomForStream(retryAfter)
    this.perIp.set(ip, mine + 1)
    this.admittedOf[kind]++
    return { ip, kind, res: undefined, group: undefined, released: false, ...own }
  }

  /** Gives the place back; safe to call more than once. */
  release(client: StreamClient): void {
    if (client.released) return
    client.released = true
    this.admittedOf[client.kind]--
    const left = (this.perIp.get(client.ip) ?? 1) - 1
    if (left > 0) this.perIp.set(client.ip, left)
    else this.perIp.delete(client.ip)
    if (client.res) this.open[client.kind]--
    client.group?.leave(client)
    client.res = undefined
  }

  /** True once shutdown has begun: a stream opened now gets its first event and an end (`farewell`). */
  get draining(): boolean {
    return this.closing
  }

  /**
   * A late stream on a draining instance (its connection was already open): a refusal would stop an
   * EventSource for good, so it gets its first event and an end, and reconnects to another instance.
   */
  farewell(client: StreamClient, first: Buffer): void {
    this.finish(client, Buffer.concat([first, GOODBYE]), false)
  }

  /** Takes over a response whose headers are written; false when its client has already gone. */
  attach(client: StreamClient, res: ServerResponse): boolean {
    if (res.destroyed) {
      this.release(client)
      return false
    }
    client.res = res
    this.open[client.kind]++
    res.once('close', () => this.release(client))
    return true
  }

  /** The `retry:` advice for a new stream. */
  retryAdvice(): number {
    return jitteredRetry(this.opts.retryMs, this.opts.random)
  }

  openOf(kind: StreamKind): number {
    return this.open[kind]
  }

  /** Streams admitted and not open yet: their route is still preparing the first event. */
  preparingOf(kind: StreamKind): number {
    return this.admittedOf[kind] - this.open[kind]
  }

  sentOf(kind: StreamKind): number {
    return this.sent[kind]
  }

  deliver(client: StreamClient, frame: Buffer, counted = true): void {
    const res = client.res
    if (!res || res.destroyed) return
    res.write(frame)
    if (counted) this.sent[client.kind]++
    if (res.writableLength > this.opts.maxBufferedBytes) {
      this.opts.log.info({ stream: client.kind }, 'stream client is not reading; dropping it')
      res.destroy()
    }
  }

  /**
   * Sends a stream's last frame now and ends the stream soon after. Ending costs more than writing
   * (the request's log line and metrics run then), so the ends are queued and done in batches that
   * yield to I/O: after a terminal status, the event reaches the clients of every order first.
   */
  finish(client: StreamClient, last: Buffer, isEvent = true): void {
    client.group?.leave(client)
    this.deliver(client, last, isEvent)
    this.ending.push(client)
    if (this.ending.length === 1) setImmediate(() => this.endQueued())
  }

  /**
   * Ends every stream, each at its own random moment of the drain window (EventSource clients then
   * reconnect, to another instance, not all in the same instant), and with the last client of a group
   * what it follows. Until its moment comes a stream keeps getting its events and heartbeats.
   */
  async shutdown(): Promise<void> {
    this.closing = true
    const clients = this.sources.flatMap((source) => [...source.groups()].flatMap((g) => [...g.clients]))
    await spreadOver(this.opts.clock, clients, this.opts.drainWindowMs, this.opts.random, (client) => {
      if (client.group) this.finish(client, GOODBYE, false)
    })
    this.opts.clock.clearInterval(this.heartbeat)
    for (const source of this.sources) source.close()
    // close() waits for open responses: end them all now.
    for (const client of this.ending.splice(0)) end(client)
  }

  private endQueued(): void {
    for (const client of this.ending.splice(0, END_BATCH)) end(client)
    if (this.ending.length > 0) setImmediate(() => this.endQueued())
  }

  private beat(): void {
    const now = this.opts.clock.now()
    for (const source of this.sources) {
      source.beat?.(now)
      for (const group of source.groups()) {
        for (const client of group.clients) this.deliver(client, HEARTBEAT, false)
      }
    }
  }
}

function end(client: StreamClient): void {
  const res = client.res
  if (res && !res.destroyed && !res.writableEnded) res.end()
}
