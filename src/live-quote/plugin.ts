// The live quote capability: its hub (as `app.quoteHub`, for metrics) and its route. Its streams are
// held with the status streams' (`app.streamClients`), so it comes after the stream capability.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { errorTypeBase } from '../errors.js'
import { QuoteHub } from './hub.js'
import { quoteMetrics } from './metrics.js'
import { liveQuoteRoute } from './route.js'

declare module 'fastify' {
  interface FastifyInstance {
    quoteHub: QuoteHub
  }
}

export interface LiveQuoteOptions {
  apiPrefix: string
  publicOrigin: string
  /** QUOTE_REFRESH_MS, QUOTE_STREAM_MAX_SILENCE_MS, QUOTE_STREAM_MAX_MS. */
  refreshMs: number
  maxSilenceMs: number
  maxMs: number
}

export const liveQuotePlugin = fp(
  async (app: FastifyInstance, opts: LiveQuoteOptions) => {
    const hub = new QuoteHub({
      clock: app.clock,
      log: app.log,
      upstream: app.upstream,
      contextFor: app.upstreamContextFor,
      streams: app.streamClients,
      refreshMs: opts.refreshMs,
      maxSilenceMs: opts.maxSilenceMs,
      maxMs: opts.maxMs,
      typeBase: errorTypeBase(opts.publicOrigin, opts.apiPrefix),
    })
    app.decorate('quoteHub', hub)
    quoteMetrics(app.metrics, hub)
    await app.register(liveQuoteRoute, { prefix: opts.apiPrefix, hub, guard: app.tokenGuard })
  },
  {
    name: 'live-quote',
    dependencies: ['client-ip', 'upstream', 'catalog', 'stream'],
    decorators: { fastify: ['clock', 'streamClients', 'tokenGuard'] },
  },
)
