// Shares the one upstream client with every capability, and gives each request its call context
// (request id, logger, and one deadline for all of its upstream work).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Clock } from '../clock.js'
import type { BreakerState } from './breaker.js'
import type { CallContext, CallObservation, UpstreamTuning } from './client.js'
import { UpstreamClient } from './client.js'

declare module 'fastify' {
  interface FastifyInstance {
    upstream: UpstreamClient
  }
  interface FastifyRequest {
    upstreamContext(): CallContext
  }
}

export interface UpstreamPluginOptions {
  baseUrl: string
  tenantKey: string
  timeoutMs: number
  tuning: UpstreamTuning
  clock: Clock
  userAgent: string
  random?: () => number
  observe?: (o: CallObservation) => void
  onBreakerChange?: (state: BreakerState) => void
}

const contexts = Symbol('upstreamContext')

export const upstreamPlugin = fp(
  async (app: FastifyInstance, opts: UpstreamPluginOptions) => {
    const client = new UpstreamClient({
      baseUrl: opts.baseUrl,
      tenantKey: opts.tenantKey,
      userAgent: opts.userAgent,
      tuning: opts.tuning,
      clock: opts.clock,
      random: opts.random,
      tracing: app.tracing,
      observe: opts.observe,
      onBreakerChange: (state) => {
        app.log[state === 'open' ? 'error' : 'warn'](
          { breaker: state },
          'upstream circuit breaker changed state',
        )
        opts.onBreakerChange?.(state)
      },
    })
    app.decorate('upstream', client)
    app.decorateRequest('upstreamContext', function (this: FastifyRequest & { [contexts]?: CallContext }) {
      this[contexts] ??= {
        requestId: this.id,
        log: this.log,
        deadline: opts.clock.now() + opts.timeoutMs,
        timing: this.upstreamTiming,
        trace: this.trace ?? undefined,
      }
      return this[contexts]
    })
    app.addHook('onClose', () => client.close())
  },
  { name: 'upstream', dependencies: ['request-logging', 'tracing'] },
)
