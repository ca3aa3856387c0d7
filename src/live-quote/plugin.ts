// The live quote capability: its hub (as `app.quoteHub`, for metrics) and its route. Its streams are
// held with the status streams' (`app.streamClients`), so it comes after the stream capability.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Clock } from '../clock.js'
import { errorTypeBase } from '../errors.js'
import type { PairGuard } from '../orders/pair-and-credentials.js'
import { QuoteHub } from './hub.js'
import { liveQuoteRoute } from './route.js'

export type { QuoteStats } from './hub.js'

declare module 'fastify' {
  interface FastifyInstance {
    quoteHub: QuoteHub
  }
}

export interface LiveQuoteOptions {
  apiPrefix: string
  publicOrigin: string
  clock: Clock
  guard: PairGuard
  clientIpHeader: string | undefined
  upstreamTimeoutMs: number
  refreshMs: number
  maxSilenceMs: number
  maxMs: number
}

export const liveQuotePlugin = fp(
  async (app: FastifyInstance, opts: LiveQuoteOptions) => {
    const hub = new QuoteHub({
      clock: opts.clock,
      log: app.log,
      upstream: app.upstream,
      streams: app.streamClients,
      refreshMs: opts.refreshMs,
      maxSilenceMs: opts.maxSilenceMs,
      maxMs: opts.maxMs,
      upstreamTimeoutMs: opts.upstreamTimeoutMs,
      typeBase: errorTypeBase(opts.publicOrigin, opts.apiPrefix),
    })
    app.decorate('quoteHub', hub)
    await app.register(liveQuoteRoute, {
      prefix: opts.apiPrefix,
      hub,
      guard: opts.guard,
      clientIpHeader: opts.clientIpHeader,
    })
  },
  { name: 'live-quote', dependencies: ['upstream', 'stream'], decorators: { fastify: ['streamClients'] } },
)
