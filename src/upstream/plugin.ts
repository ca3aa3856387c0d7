// Shares the one upstream client with every capability, and gives each request its call context
// (request id, logger, and one deadline for all of its upstream work). With Redis, the tenant key's
// quota (call budget, cool-down) is shared under a key named by the tenant key's fingerprint: the
// quota is the key's, so deployments with different keys on one Redis keep their own.
import { createHash } from 'node:crypto'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { MemoryWindowCounter, RedisWindowCounter } from '../redis/window-counter.js'
import { CallBudget } from './call-budget.js'
import type { CallContext } from './call.js'
import { DEFAULT_TUNING, type UpstreamTuning } from './tuning.js'
import { UpstreamClient } from './client.js'
import { CoolDown } from './cool-down.js'
import { callMetrics, stateMetrics } from './metrics.js'
import { upstreamReadiness } from './readiness.js'
import { TenantKeyWatch } from './tenant-key.js'

declare module 'fastify' {
  interface FastifyInstance {
    upstream: UpstreamClient
    /** The call context of work done for no request (reloads, subscriptions, polls): a deadline of its own. */
    upstreamContextFor(requestId: string, log?: FastifyBaseLogger): CallContext
  }
  interface FastifyRequest {
    upstreamContext(): CallContext
  }
}

export interface UpstreamOptions {
  url: string
  tenantKey: string
  /** UPSTREAM_TIMEOUT_MS: one deadline for all the upstream work of a request. */
  timeoutMs: number
  /** UPSTREAM_MAX_RPS. */
  maxRps: number | undefined
  /** No answer for this long degrades readiness. */
  readinessWindowMs: number
  userAgent: string
  tuning?: Partial<UpstreamTuning>
}

/** The current and the few seconds a lagging clock may still name. */
const LOCAL_BUDGET_KEYS = 8

function tenantQuota(app: FastifyInstance, opts: UpstreamOptions, tuning: UpstreamTuning) {
  const { clock } = app
  const fingerprint = createHash('sha256').update(opts.tenantKey).digest('hex').slice(0, 12)
  const local = new MemoryWindowCounter(clock, LOCAL_BUDGET_KEYS)
  return app.stores.create('upstream', {
    memory: () => ({
      budget: opts.maxRps === undefined ? undefined : new CallBudget(opts.maxRps, clock, local, local),
      coolDown: new CoolDown(clock),
    }),
    redis: (link, space) => {
      const prefix = `${space}${fingerprint}:`
      const budget =
        opts.maxRps === undefined
          ? undefined
          : new CallBudget(opts.maxRps, clock, new RedisWindowCounter(link.client, prefix), local)
      const shared = { client: link.client, key: `${prefix}cooldown`, pollMs: tuning.coolDownPollMs }
      return { budget, coolDown: new CoolDown(clock, shared) }
    },
  })
}

const contexts = Symbol('upstreamContext')

export const upstreamPlugin = fp(
  async (app: FastifyInstance, opts: UpstreamOptions) => {
    const { clock } = app
    const tuning = { ...DEFAULT_TUNING, ...opts.tuning }
    const tenantKey = new TenantKeyWatch(app.log)
    app.decorate('tenantKey', tenantKey)
    const client = new UpstreamClient({
      tenantKeyWatch: tenantKey,
      baseUrl: opts.url,
      tenantKey: opts.tenantKey,
      userAgent: opts.userAgent,
      tuning,
      clock,
      random: app.random,
      tracing: app.tracing,
      ...callMetrics(app.metrics),
      ...tenantQuota(app, opts, tuning),
      onBreakerChange: (state) => {
        app.log[state === 'open' ? 'error' : 'warn'](
          { breaker: state },
          'upstream circuit breaker changed state',
        )
      },
    })
    app.decorate('upstream', client)
    stateMetrics(app.metrics, client, tenantKey)
    app.readiness.add(...tenantKey.readiness(), upstreamReadiness(client, clock, opts.readinessWindowMs))
    app.decorate('upstreamContextFor', (requestId: string, log: FastifyBaseLogger = app.log) => ({
      requestId,
      log,
      deadline: clock.now() + opts.timeoutMs,
    }))
    app.decorateRequest('upstreamContext', function (this: FastifyRequest & { [contexts]?: CallContext }) {
      this[contexts] ??= {
        requestId: this.id,
        log: this.log,
        deadline: clock.now() + opts.timeoutMs,
        timing: this.upstreamTiming,
        trace: this.trace ?? undefined,
      }
      return this[contexts]
    })
    app.addHook('onClose', () => client.close())
  },
  {
    name: 'upstream',
    dependencies: ['request-logging', 'tracing', 'metrics', 'readiness', 'redis'],
    decorators: { fastify: ['clock', 'random'] },
  },
)
