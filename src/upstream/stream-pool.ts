// Upstream status streams: a pool of their own, since each holds a connection for minutes and calls
// must never queue behind them. At most `maxOpening` are being opened at once (openings.ts). A stream
// passes the cool-down and the breaker but gives the breaker no verdict; its span covers the opening
// only, up to the answer's head.
import { Pool } from 'undici'
import type { CallContext } from './call.js'
import type { CircuitBreaker } from './breaker.js'
import { classifyTransportError } from './classify.js'
import type { CallGates } from './gates.js'
import { Openings } from './openings.js'
import { type Sender, upstreamHeaders } from './send.js'
import type { Tracing } from '../tracing/trace-context.js'

export interface StreamPoolOptions {
  origin: string
  sender: Sender
  tracing: Tracing
  gates: CallGates
  breaker: CircuitBreaker
  /** Told of every answer head: the upstream is there. */
  answered: () => void
  /** Streams being opened at once at most. */
  maxOpening: number
}

export class StreamPool {
  private readonly pool: Pool
  private readonly openings: Openings

  constructor(private readonly options: StreamPoolOptions) {
    this.pool = new Pool(options.origin, { keepAliveTimeout: 1_000, bodyTimeout: 0 })
    this.openings = new Openings(options.maxOpening)
  }

  /**
   * Opens the upstream status stream once a place to open it is free (`urgent`: a client reads it, so
   * it goes before the watch's); its context, and so its deadline, is made then. The caller owns the
   * body and must destroy it.
   */
  async open(context: () => CallContext, path: string, signal: AbortSignal, urgent: boolean) {
    const leave = await this.openings.enter(urgent, signal)
    try {
      return await this.send(context(), path, signal)
    } finally {
      leave()
    }
  }

  private async send(ctx: CallContext, path: string, signal: AbortSignal) {
    const { sender, tracing, gates, breaker } = this.options
    const refused = gates.passStream()
    if (refused) throw refused.error
    const trace = tracing.call(ctx.trace, 'stream', 'GET')
    try {
      const res = await this.pool.request({
        method: 'GET',
        path: sender.basePath + path,
        headers: {
          ...upstreamHeaders(sender, ctx, { operation: 'stream' }, trace.traceparent),
          accept: 'text/event-stream',
        },
        headersTimeout: Math.max(1, ctx.deadline - sender.clock.now()),
        signal,
      })
      this.options.answered()
      trace.attempted(res.statusCode, 'ok')
      return res
    } catch (err) {
      const timedOut = sender.clock.now() >= ctx.deadline
      trace.attempted(undefined, classifyTransportError('stream', err, timedOut).error.code)
      throw err
    } finally {
      // No verdict for the breaker, but this may have been its half-open probe: free the slot.
      breaker.settle()
      trace.end()
    }
  }

  close(): Promise<void> {
    return this.pool.destroy()
  }
}
