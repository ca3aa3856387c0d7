// The live quote capability: its hub (as `app.quoteHub`, for metrics) and its route. Its streams are
// held in the SSE registry (`app.sseRegistry`), with the status and wallet streams.
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
    const streams = app.sseRegistry
    const hub = new QuoteHub({
      clock: app.clock,
      log: app.log,
      upstream: app.upstream,
      contextFor: app.upstreamContextFor,
      streams,
      refreshMs: opts.refreshMs,
      maxSilenceMs: opts.maxSilenceMs,
      typeBase: errorTypeBase(opts.publicOrigin, opts.apiPrefix),
    })
    app.decorate('quoteHub', hub)
    quoteMetrics(app.metrics, hub)
    await app.register(liveQuoteRoute, {
      prefix: opts.apiPrefix,
      hub,
      streams,
      guard: app.tokenGuard,
      maxMs: opts.maxMs,
    })
  },
  {
    name: 'live-quote',
    dependencies: ['client-ip', 'metrics', 'upstream', 'catalog', 'sse'],
    decorators: { fastify: ['clock', 'sseRegistry', 'tokenGuard'] },
  },
)
