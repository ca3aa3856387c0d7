// The order status stream capability: the status hub (`app.statusHub`: the watch follows orders on
// its feeds, and metrics read it) and its route. Its streams are held in the SSE registry
// (`app.sseRegistry`), with the live quote and wallet streams.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { StatusHub } from './hub.js'
import { statusStreamMetrics } from './metrics.js'
import { statusStreamRoute } from './route.js'
import { DEFAULT_SUBSCRIPTION_TUNING, type SubscriptionTuning } from './subscription.js'

export type { SubscriptionTuning } from './subscription.js'

declare module 'fastify' {
  interface FastifyInstance {
    statusHub: StatusHub
  }
}

export interface StatusStreamOptions {
  apiPrefix: string
  tuning?: Partial<SubscriptionTuning>
}

export const statusStreamPlugin = fp(
  async (app: FastifyInstance, opts: StatusStreamOptions) => {
    const streams = app.sseRegistry
    const hub = new StatusHub({
      clock: app.clock,
      log: app.log,
      reader: app.orderReader,
      upstream: app.upstream,
      contextFor: app.upstreamContextFor,
      streams,
      tuning: { ...DEFAULT_SUBSCRIPTION_TUNING, ...opts.tuning },
      random: app.random,
    })
    app.decorate('statusHub', hub)
    statusStreamMetrics(app.metrics, hub)
    await app.register(statusStreamRoute, { prefix: opts.apiPrefix, hub, streams })
  },
  {
    name: 'status-stream',
    dependencies: ['client-ip', 'metrics', 'upstream', 'orders', 'sse'],
    decorators: { fastify: ['clock', 'random', 'orderReader', 'sseRegistry'] },
  },
)
