// The SSE stream registry of the process (`app.sseRegistry`): every status, live quote and wallet
// stream is admitted there by its route, under one set of limits, one heartbeat and one drain at
// shutdown. Each kind's hub registers itself as a source of the groups it holds.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { SseRegistry } from './registry.js'
import { drainWindowMs } from './spread.js'

declare module 'fastify' {
  interface FastifyInstance {
    sseRegistry: SseRegistry
  }
}

export interface SseTuning {
  /** A client that lets this much pile up unread is too slow to follow; its stream is dropped. */
  maxBufferedBytes: number
}

const DEFAULT_SSE_TUNING: SseTuning = { maxBufferedBytes: 256 * 1024 }

export interface SseOptions {
  /** SSE_HEARTBEAT_MS, SSE_MAX_PER_IP, SSE_MAX_TOTAL. */
  heartbeatMs: number
  maxPerIp: number
  maxTotal: number
  /** SSE_RETRY_MS: base of the jittered `retry:` advice. */
  retryMs: number
  /** SSE_DRAIN_SPREAD_MS and SHUTDOWN_TIMEOUT_MS: stream ends at shutdown are spread within both. */
  drainSpreadMs: number
  shutdownTimeoutMs: number
  tuning?: Partial<SseTuning>
}

export const ssePlugin = fp(
  async (app: FastifyInstance, opts: SseOptions) => {
    const tuning = { ...DEFAULT_SSE_TUNING, ...opts.tuning }
    const registry = new SseRegistry({
      clock: app.clock,
      log: app.log,
      heartbeatMs: opts.heartbeatMs,
      maxPerIp: opts.maxPerIp,
      maxTotal: opts.maxTotal,
      retryMs: opts.retryMs,
      drainWindowMs: drainWindowMs(opts.drainSpreadMs, opts.shutdownTimeoutMs),
      maxBufferedBytes: tuning.maxBufferedBytes,
      random: app.random,
    })
    app.decorate('sseRegistry', registry)
    // Streams never finish on their own, and close() waits for open connections: their ends are
    // started here, spread over the drain window, while the server stops accepting new connections;
    // the app is closed once the last one has ended.
    let drained: Promise<void> = Promise.resolve()
    app.addHook('preClose', (done) => {
      drained = registry.shutdown()
      done()
    })
    app.addHook('onClose', async () => drained)
  },
  { name: 'sse', decorators: { fastify: ['clock', 'random'] } },
)
