// One upstream SSE connection for one order, kept alive: the upstream closes idle streams after 60 s
// and replays nothing, so a closed, reset or refused connection is reopened at once (with backoff when
// it keeps failing), a silent one is presumed dead, and while it cannot be opened the order is polled.
// The framing is parsed by eventsource-parser; what the events mean is the feed's business.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, Timer } from '../clock.js'
import { backoffDelay } from '../upstream/backoff.js'
import type { UpstreamClient } from '../upstream/client.js'

export type StreamResponse = Awaited<ReturnType<UpstreamClient['openStream']>>

export interface SubscriptionTuning {
  /** Backoff between reopen attempts that keep failing: base and cap, in ms (full jitter). */
  reopenBaseMs: number
  reopenCapMs: number
  /** A connection that lived at least this long ended normally; a shorter one counts as a failure. */
  stableMs: number
  /** How often the order is read while the upstream stream cannot be opened. */
  pollMs: number
  /** No byte from the upstream for this long: the connection is presumed dead and reopened. */
  upstreamIdleMs: number
  /** The most an upstream event may buffer before the connection is dropped as misbehaving. */
  maxEventBytes: number
}

export const DEFAULT_SUBSCRIPTION_TUNING: SubscriptionTuning = {
  reopenBaseMs: 250,
  reopenCapMs: 30_000,
  stableMs: 1_000,
  pollMs: 5_000,
  upstreamIdleMs: 70_000,
  maxEventBytes: 1024 * 1024,
}

export interface SubscriptionHandlers {
  /** The stream is open (again): the feed catches up on what it may have missed meanwhile. */
  opened(): void
  event(message: EventSourceMessage): void
  /** The stream cannot be opened: read the order instead. */
  poll(): void
  /** A reopen attempt is about to be made (for the reconnects counter). */
  reopening(): void
}

export interface SubscriptionDeps {
  open(signal: AbortSignal): Promise<StreamResponse>
  clock: Clock
  tuning: SubscriptionTuning
  random: () => number
  log: FastifyBaseLogger
}

export class UpstreamSubscription {
  private controller: AbortController | undefined
  private retryTimer: Timer | undefined
  private pollTimer: Timer | undefined
  private failures = 0
  private closed = false
  /** Clock time of the last byte received, or of the last attempt to open. */
  private lastSignOfLife = 0

  constructor(
    private readonly deps: SubscriptionDeps,
    private readonly handlers: SubscriptionHandlers,
  ) {}

  start(): void {
    void this.connect()
  }

  /** True while the stream cannot be opened and the order is read on a timer instead. */
  get polling(): boolean {
    return this.pollTimer !== undefined
  }

  /** Aborts a connection that has been silent for too long; called from the hub's one timer. */
  checkIdle(now: number): void {
    if (this.controller && now - this.lastSignOfLife >= this.deps.tuning.upstreamIdleMs) {
      this.deps.log.warn('upstream status stream silent for too long; reopening')
      this.controller.abort()
    }
  }

  close(): void {
    this.closed = true
    this.deps.clock.clearTimeout(this.retryTimer)
    this.deps.clock.clearInterval(this.pollTimer)
    this.retryTimer = undefined
    this.pollTimer = undefined
    this.controller?.abort()
  }

  private async connect(): Promise<void> {
    this.retryTimer = undefined
    if (this.closed) return
    const controller = new AbortController()
    this.controller = controller
    const startedAt = this.deps.clock.now()
    this.lastSignOfLife = startedAt
    let res: StreamResponse
    try {
      res = await this.deps.open(controller.signal)
    } catch (err) {
      this.controller = undefined
      return this.failed(err)
    }
    if (this.closed || controller.signal.aborted) {
      discard(res)
      this.controller = undefined
      if (!this.closed) this.failed(new Error('aborted while opening'))
      return
    }
    if (res.statusCode !== 200 || !/^text\/event-stream/i.test(String(res.headers['content-type'] ?? ''))) {
      discard(res)
      this.controller = undefined
      return this.failed(
        new Error(`upstream answered ${res.statusCode} ${res.headers['content-type'] ?? ''}`),
      )
    }
    this.stopPolling()
    this.handlers.opened()
    await this.read(res, controller)
    this.controller = undefined
    if (this.closed) return
    const lived = this.deps.clock.now() - startedAt
    this.failures = lived >= this.deps.tuning.stableMs ? 0 : this.failures + 1
    this.schedule()
  }

  private async read(res: StreamResponse, controller: AbortController): Promise<void> {
    const parser = createParser({
      onEvent: (message) => this.handlers.event(message),
      onError: (err) => {
        this.deps.log.warn(
          { err: err.message, type: err.type },
          'upstream status stream sent a malformed frame',
        )
        if (err.type === 'max-buffer-size-exceeded') controller.abort()
      },
      maxBufferSize: this.deps.tuning.maxEventBytes,
    })
    const decoder = new TextDecoder()
    try {
      for await (const chunk of res.body) {
        this.lastSignOfLife = this.deps.clock.now()
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }))
        if (controller.signal.aborted) break
      }
      this.deps.log.debug('upstream status stream ended')
    } catch (err) {
      if (!this.closed) this.deps.log.debug({ err: String(err) }, 'upstream status stream broke off')
    } finally {
      discard(res)
    }
  }

  private failed(err: unknown): void {
    if (this.closed) return
    this.failures += 1
    this.deps.log.warn(
      { err: err instanceof Error ? err.message : String(err), failures: this.failures },
      'upstream status stream could not be opened; polling the order',
    )
    this.startPolling()
    this.schedule()
  }

  private schedule(): void {
    const { reopenBaseMs, reopenCapMs } = this.deps.tuning
    const delay =
      this.failures === 0 ? 0 : backoffDelay(this.failures - 1, reopenBaseMs, reopenCapMs, this.deps.random)
    this.handlers.reopening()
    this.retryTimer = this.deps.clock.setTimeout(() => void this.connect(), delay)
  }

  private startPolling(): void {
    if (this.pollTimer) return
    // The first poll is immediate: a transition may have happened while the stream was down.
    this.handlers.poll()
    this.pollTimer = this.deps.clock.setInterval(() => this.handlers.poll(), this.deps.tuning.pollMs)
  }

  private stopPolling(): void {
    this.deps.clock.clearInterval(this.pollTimer)
    this.pollTimer = undefined
  }
}

/** Lets go of a response body; undici reports an unread body's destruction as an error, expected here. */
function discard(res: StreamResponse): void {
  res.body.on('error', () => {})
  res.body.destroy()
}
