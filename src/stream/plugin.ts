// The order status stream capability: the hub (shared, as `app.streamHub`, for metrics) and its route.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Clock } from '../clock.js'
import { DEFAULT_STREAM_TUNING, StatusHub, type StreamTuning } from './hub.js'
import { streamRoute } from './route.js'

export type { StreamStats, StreamTuning } from './hub.js'

declare module 'fastify' {
  interface FastifyInstance {
    streamHub: StatusHub
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
  tuning?: Partial<StreamTuning>
  random?: () => number
}

function checked(opts: StreamPluginOptions): StreamTuning {
  const tuning = { ...DEFAULT_STREAM_TUNING, ...opts.tuning }
  const numbers = {
    heartbeatMs: opts.heartbeatMs,
    maxPerIp: opts.maxPerIp,
    maxTotal: opts.maxTotal,
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
    const hub = new StatusHub({
      clock: opts.clock,
      log: app.log,
      reader: app.orderReader,
      upstream: app.upstream,
      upstreamTimeoutMs: opts.upstreamTimeoutMs,
      heartbeatMs: opts.heartbeatMs,
      maxPerIp: opts.maxPerIp,
      maxTotal: opts.maxTotal,
      tuning: checked(opts),
      random: opts.random,
    })
    app.decorate('streamHub', hub)
    // Streams never finish on their own, and close() waits for open requests: end them first.
    app.addHook('preClose', async () => hub.shutdown())
    await app.register(streamRoute, { prefix: opts.apiPrefix, hub, clientIpHeader: opts.clientIpHeader })
  },
  { name: 'stream', dependencies: ['upstream', 'orders'] },
)
