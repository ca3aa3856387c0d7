// The order status stream capability: every stream of the process (`app.streamClients`, whose limits,
// heartbeat and shutdown the live quote shares), the status hub (`app.streamHub`, for metrics) and its
// route.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Clock } from '../clock.js'
import { StreamClients } from './clients.js'
import { DEFAULT_STREAM_TUNING, StatusHub, type StreamTuning } from './hub.js'
import { streamRoute } from './route.js'
import { drainWindowMs } from './spread.js'

export type { StreamStats, StreamTuning } from './hub.js'

declare module 'fastify' {
  interface FastifyInstance {
    streamHub: StatusHub
    streamClients: StreamClients
  }
}

export interface StreamPluginOptions {
  apiPrefix: string
  clock: Clock
  heartbeatMs: number
  maxPerIp: number
  maxTotal: number
  clientIpHeader: string | undefined
  /** Deadline of each upstream operation the hub makes on its own. */
  upstreamTimeoutMs: number
  /** SSE_RETRY_MS: base of the jittered `retry:` advice. */
  retryMs: number
  /** SSE_DRAIN_SPREAD_MS and SHUTDOWN_TIMEOUT_MS: stream ends at shutdown are spread within both. */
  drainSpreadMs: number
  shutdownTimeoutMs: number
  tuning?: Partial<StreamTuning>
  random?: () => number
}

function checked(opts: StreamPluginOptions): StreamTuning {
  const tuning = { ...DEFAULT_STREAM_TUNING, ...opts.tuning }
  const numbers = {
    heartbeatMs: opts.heartbeatMs,
    maxPerIp: opts.maxPerIp,
    maxTotal: opts.maxTotal,
    retryMs: opts.retryMs,
    drainSpreadMs: opts.drainSpreadMs,
    ...tuning,
  }
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`stream plugin: ${name} must be a whole number ≥ 0`)
  }
  if (opts.heartbeatMs < 1 || tuning.pollMs < 1)
    throw new Error('stream plugin: heartbeatMs and pollMs must be ≥ 1')
  return tuning
}

export const streamPlugin = fp(
  async (app: FastifyInstance, opts: StreamPluginOptions) => {
    const tuning = checked(opts)
    const random = opts.random ?? Math.random
    const streams = new StreamClients({
      clock: opts.clock,
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
      clock: opts.clock,
      log: app.log,
      reader: app.orderReader,
      upstream: app.upstream,
      upstreamTimeoutMs: opts.upstreamTimeoutMs,
      streams,
      tuning,
      random,
    })
    app.decorate('streamClients', streams)
    app.decorate('streamHub', hub)
    // Streams never finish on their own, and close() waits for open connections: their ends are
    // started here, spread over the drain window, while the server stops accepting new connections;
    // the app is closed once the last one has ended.
    let drained: Promise<void> = Promise.resolve()
    app.addHook('preClose', (done) => {
      drained = streams.shutdown()
      done()
    })
    app.addHook('onClose', async () => drained)
    await app.register(streamRoute, { prefix: opts.apiPrefix, hub, clientIpHeader: opts.clientIpHeader })
  },
  { name: 'stream', dependencies: ['upstream', 'orders'] },
)
