// The order status stream capability: every stream of the process (`app.streamClients`, whose limits,
// heartbeat and shutdown the live quote shares), the status hub (`app.streamHub`, for metrics) and its
// route.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { StreamClients } from '../sse/registry.js'
import { DEFAULT_STREAM_TUNING, StatusHub, type StreamTuning } from './hub.js'
import { streamMetrics } from './metrics.js'
import { streamRoute } from './route.js'
import { drainWindowMs } from '../sse/spread.js'

export type { StreamTuning } from './hub.js'

declare module 'fastify' {
  interface FastifyInstance {
    streamHub: StatusHub
    streamClients: StreamClients
  }
}

export interface StreamOptions {
  apiPrefix: string
  /** SSE_HEARTBEAT_MS, SSE_MAX_PER_IP, SSE_MAX_TOTAL. */
  heartbeatMs: number
  maxPerIp: number
  maxTotal: number
  /** SSE_RETRY_MS: base of the jittered `retry:` advice. */
  retryMs: number
  /** SSE_DRAIN_SPREAD_MS and SHUTDOWN_TIMEOUT_MS: stream ends at shutdown are spread within both. */
  drainSpreadMs: number
  shutdownTimeoutMs: number
  tuning?: Partial<StreamTuning>
}

export const streamPlugin = fp(
  async (app: FastifyInstance, opts: StreamOptions) => {
    const { clock, random } = app
    const tuning = { ...DEFAULT_STREAM_TUNING, ...opts.tuning }
    const streams = new StreamClients({
      clock,
      log: app.log,
      heartbeatMs: opts.heartbeatMs,
      maxPerIp: opts.maxPerIp,
      maxTotal: opts.maxTotal,
      retryMs: opts.retryMs,
      drainWindowMs: drainWindowMs(opts.drainSpreadMs, opts.shutdownTimeoutMs),
      maxBufferedBytes: tuning.maxBufferedBytes,
      random,
    })
    const hub = new StatusHub({
      clock,
      log: app.log,
      reader: app.orderReader,
      upstream: app.upstream,
      contextFor: app.upstreamContextFor,
      streams,
      tuning,
      random,
    })
    app.decorate('streamClients', streams)
    app.decorate('streamHub', hub)
    streamMetrics(app.metrics, hub)
    // Streams never finish on their own, and close() waits for open connections: their ends are
    // started here, spread over the drain window, while the server stops accepting new connections;
    // the app is closed once the last one has ended.
    let drained: Promise<void> = Promise.resolve()
    app.addHook('preClose', (done) => {
      drained = streams.shutdown()
      done()
    })
    app.addHook('onClose', async () => drained)
    await app.register(streamRoute, { prefix: opts.apiPrefix, hub })
  },
  {
    name: 'stream',
    dependencies: ['client-ip', 'upstream', 'orders'],
    decorators: { fastify: ['clock', 'random', 'orderReader'] },
  },
)
