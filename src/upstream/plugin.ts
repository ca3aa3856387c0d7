// Shares the one upstream client with every capability, and gives each request its call context
// (request id, logger, and one deadline for all of its upstream work). With Redis, the tenant key's
// quota (call budget, cool-down) is shared under a key named by the tenant key's fingerprint: the
// quota is the key's, so deployments with different keys on one Redis keep their own.
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import type { Clock } from '../clock.js'
import { MemoryWindowCounter, RedisWindowCounter } from '../redis/window-counter.js'
import { CallBudget } from './call-budget.js'
import type { Operation } from './classify.js'
import type { CallContext, CallObservation, RefusalReason, UpstreamTuning } from './client.js'
import { UpstreamClient } from './client.js'
import { CoolDown } from './cool-down.js'
import { TenantKeyWatch } from './tenant-key.js'

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
  /** Calls refused before they were sent, by reason. */
  refused?: (operation: Operation, reason: RefusalReason) => void
  /** UPSTREAM_MAX_RPS. */
  maxRps?: number
  /** The Redis shared by the fleet (REDIS_URL). */
  redis?: Redis
}

/** The current and the few seconds a lagging clock may still name. */
const LOCAL_BUDGET_KEYS = 8

function tenantQuota(opts: UpstreamPluginOptions) {
  const { clock, redis, maxRps } = opts
  const fingerprint = createHash('sha256').update(opts.tenantKey).digest('hex').slice(0, 12)
  const prefix = `swap-gateway:upstream:${fingerprint}:`
  const local = new MemoryWindowCounter(clock, LOCAL_BUDGET_KEYS)
  const budget =
    maxRps === undefined
      ? undefined
      : new CallBudget(maxRps, clock, redis ? new RedisWindowCounter(redis, prefix) : local, local)
  const shared = redis && { client: redis, key: `${prefix}cooldown`, pollMs: opts.tuning.coolDownPollMs }
  return { budget, coolDown: new CoolDown(clock, shared) }
}

const contexts = Symbol('upstreamContext')

export const upstreamPlugin = fp(
  async (app: FastifyInstance, opts: UpstreamPluginOptions) => {
    const tenantKey = new TenantKeyWatch(app.log)
    app.decorate('tenantKey', tenantKey)
    const client = new UpstreamClient({
      tenantKeyWatch: tenantKey,
      refused: opts.refused,
      baseUrl: opts.baseUrl,
      tenantKey: opts.tenantKey,
      userAgent: opts.userAgent,
      tuning: opts.tuning,
      clock: opts.clock,
      random: opts.random,
      tracing: app.tracing,
      observe: opts.observe,
      ...tenantQuota(opts),
      onBreakerChange: (state) => {
        app.log[state === 'open' ? 'error' : 'warn'](
          { breaker: state },
          'upstream circuit breaker changed state',
        )
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
