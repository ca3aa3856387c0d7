// Prometheus metrics of one gateway instance, in a registry of its own (several apps run side by side
// in tests). Labels are route templates, methods, statuses, groups, operations and codes only: never a
// raw URL, an id, an address or a credential, so cardinality stays bounded and nothing secret leaks.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { CatalogStats } from '../catalog/cache.js'
import { routeUrlOf } from '../edge/route-group.js'
import type { QuoteStats } from '../live-quote/hub.js'
import type { StreamStats } from '../stream/hub.js'
import type { BreakerState } from '../upstream/breaker.js'
import type { Operation } from '../upstream/classify.js'
import type { CallObservation, QuotaStats, RefusalReason } from '../upstream/client.js'
import { VERSION } from '../version.js'
import type { ReadinessState } from './health.js'
import { groupOf } from '../edge/rate-limits.js'

/** Figures other capabilities keep themselves, read at scrape time. */
export interface MetricsSources {
  catalog?: () => CatalogStats
  streams?: () => StreamStats
  quotes?: () => QuoteStats
  breaker?: () => BreakerState
  upstreamQuota?: () => QuotaStats
  redisUp?: () => boolean
  /** Answers that refused TENANT_API_KEY. */
  tenantKeyRefusals?: () => number
  readiness?: () => ReadinessState
  /** Problems sent with a code their route does not declare. */
  undeclaredProblems?: () => number
}

export interface GatewayMetrics {
  registry: Registry
  observeUpstream(o: CallObservation): void
  /** An upstream call that was not sent: the breaker, the cool-down, the budget or the deadline refused it. */
  refusedUpstream(operation: Operation, reason: RefusalReason): void
  /** A logout record Redis could not write or be asked for (the check failed open). */
  revocationFailed(operation: 'revoke' | 'check'): void
  /** A create made with a session's token that the upstream answered with `userId: null`. */
  orderUnattributed(): void
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: GatewayMetrics
  }
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** A metric whose value another component holds: a gauge, or a counter when the figure only grows. */
function sourced<T>(
  registry: Registry,
  source: () => T,
  kind: 'gauge' | 'counter',
  name: string,
  help: string,
  pick: (figures: T) => number,
) {
  if (kind === 'gauge') {
    return new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const value = pick(source())
        if (Number.isFinite(value)) this.set(value)
        else this.reset()
      },
    })
  }
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset()
      this.inc(pick(source()))
    },
  })
}

function catalogMetrics(registry: Registry, catalog: () => CatalogStats) {
  const add = (kind: 'gauge' | 'counter', name: string, help: string, pick: (s: CatalogStats) => number) =>
    sourced(registry, catalog, kind, `gateway_catalog_${name}`, help, pick)
  add(
    'gauge',
    'age_seconds',
    'Seconds since the cached token catalog was loaded (absent before the first load)',
    (s) => s.ageMs / 1000,
  )
  add('gauge', 'tokens', 'Tokens in the cached catalog', (s) => s.tokens)
  add('counter', 'cache_hits_total', 'Catalog reads served from a fresh cached copy', (s) => s.hits)
  add('counter', 'cache_misses_total', 'Catalog reads that waited for a load', (s) => s.misses)
  add('counter', 'cache_stale_total', 'Catalog reads served from a stale copy', (s) => s.staleServed)
  add('counter', 'refreshes_total', 'Catalog loads from the upstream', (s) => s.refreshes)
  add('counter', 'refresh_failures_total', 'Catalog loads that failed', (s) => s.refreshFailures)
  add(
    'counter',
    'forced_refreshes_total',
    'Catalog reloads forced by an unknown token id',
    (s) => s.forcedRefreshes,
  )
}

function streamMetrics(registry: Registry, streams: () => StreamStats) {
  const add = (kind: 'gauge' | 'counter', name: string, help: string, pick: (s: StreamStats) => number) =>
    sourced(registry, streams, kind, `gateway_${name}`, help, pick)
  add('gauge', 'streams_open', 'Client status streams open', (s) => s.openStreams)
  add(
    'gauge',
    'upstream_subscriptions',
    'Upstream status-stream subscriptions open (one per watched order)',
    (s) => s.upstreamSubscriptions,
  )
  add(
    'gauge',
    'upstream_subscriptions_polling',
    'Upstream subscriptions whose stream cannot be opened, so their order is polled instead',
    (s) => s.polling,
  )
  add(
    'counter',
    'upstream_stream_reopens_total',
    'Upstream status streams reopened after closing',
    (s) => s.reconnects,
  )
  add(
    'counter',
    'stream_polls_total',
    'Order reads made by polling while no upstream stream could be opened',
    (s) => s.polls,
  )
  add('counter', 'stream_events_sent_total', 'Events sent to stream clients', (s) => s.eventsSent)
}

function quoteMetrics(registry: Registry, quotes: () => QuoteStats) {
  const add = (kind: 'gauge' | 'counter', name: string, help: string, pick: (s: QuoteStats) => number) =>
    sourced(registry, quotes, kind, `gateway_quote_${name}`, help, pick)
  add('gauge', 'streams_open', 'Client live quote streams open', (s) => s.openStreams)
  add(
    'gauge',
    'polled',
    'Distinct quotes polled now (one upstream quote each per QUOTE_REFRESH_MS, however many watch it)',
    (s) => s.polled,
  )
  add('counter', 'refreshes_total', 'Upstream quotes asked for by live quote polls', (s) => s.refreshes)
  add(
    'counter',
    'refreshes_refused_total',
    'Live quote refreshes held back by UPSTREAM_MAX_RPS or the pause after an upstream 429',
    (s) => s.refused,
  )
  add('counter', 'events_sent_total', 'Events sent to live quote clients', (s) => s.eventsSent)
}

function quotaMetrics(registry: Registry, quota: () => QuotaStats) {
  const add = (kind: 'gauge' | 'counter', name: string, help: string, pick: (s: QuotaStats) => number) =>
    sourced(registry, quota, kind, `gateway_upstream_${name}`, help, pick)
  add(
    'counter',
    'budget_refused_total',
    'Upstream calls refused because UPSTREAM_MAX_RPS was spent for that second',
    (s) => s.budgetRefused,
  )
  add(
    'counter',
    'budget_unshared_total',
    'Upstream calls counted in this instance alone because Redis could not be reached',
    (s) => s.budgetUnshared,
  )
  add(
    'gauge',
    'cooldown_seconds',
    'Seconds left of the pause after an upstream 429 (0 when calls may go out)',
    (s) => s.coolDownMs / 1000,
  )
  add('counter', 'cooldowns_total', 'Upstream 429 answers seen by this instance', (s) => s.coolDowns)
  add(
    'counter',
    'cooldown_refused_total',
    'Upstream calls refused during the pause after an upstream 429',
    (s) => s.coolDownRefused,
  )
}

function readinessMetrics(registry: Registry, readiness: () => ReadinessState) {
  new Gauge({
    name: 'gateway_ready',
    help: '1 while /readyz answers 200 (no member of this instance failing)',
    registers: [registry],
    collect() {
      this.set(Object.keys(readiness().failing).length === 0 ? 1 : 0)
    },
  })
  new Gauge({
    name: 'gateway_readiness_problem',
    help: 'Readiness members in trouble: 1 per member, with state failing (its own: 503) or degraded (shared: still 200)',
    labelNames: ['member', 'state'],
    registers: [registry],
    collect() {
      this.reset()
      const { failing, degraded } = readiness()
      for (const member of Object.keys(failing)) this.set({ member, state: 'failing' }, 1)
      for (const member of Object.keys(degraded)) this.set({ member, state: 'degraded' }, 1)
    },
  })
}

export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { sources: MetricsSources }) => {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    const labels = ['method', 'route', 'status'] as const
    // Its `_count` series is the request count: no separate counter to update on every request.
    const latency = new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer a request (a stream: its whole life), by method, route template and status',
      labelNames: labels,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    })
    const problems = new Counter({
      name: 'gateway_http_problems_total',
      help: 'Problem documents sent, by route template and error code',
      labelNames: ['route', 'code'],
      registers: [registry],
    })
    const rateLimited = new Counter({
      name: 'gateway_rate_limited_total',
      help: 'Requests refused with RATE_LIMITED, by rate-limit group',
      labelNames: ['group'],
      registers: [registry],
    })
    const replays = new Counter({
      name: 'gateway_idempotent_replays_total',
      help: 'Order creations answered from a stored Idempotency-Key response',
      registers: [registry],
    })
    const upstreamLatency = new Histogram({
      name: 'gateway_upstream_call_duration_seconds',
      help: 'Upstream call attempts, by operation and outcome (ok or our error code)',
      labelNames: ['operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    })
    const upstreamErrors = new Counter({
      name: 'gateway_upstream_call_errors_total',
      help: 'Upstream call attempts that did not succeed, by operation and error code',
      labelNames: ['operation', 'code'],
      registers: [registry],
    })

    const refusals = new Counter({
      name: 'gateway_upstream_calls_refused_total',
      help: 'Upstream calls not sent (no attempt counted), by operation and reason: breaker, cool_down, budget or deadline',
      labelNames: ['operation', 'reason'],
      registers: [registry],
    })
    new Gauge({
      name: 'gateway_build_info',
      help: 'What this instance runs: always 1, with the gateway version and the Node.js version as labels',
      labelNames: ['version', 'node'],
      registers: [registry],
    }).set({ version: VERSION, node: process.versions.node }, 1)

    const revocationFailures = new Counter({
      name: 'gateway_session_revocation_failures_total',
      help: 'Logout records Redis could not write (revoke) or be asked for (check, which then fails open)',
      labelNames: ['operation'],
      registers: [registry],
    })
    const unattributed = new Counter({
      name: 'gateway_orders_unattributed_total',
      help: "Orders created with a session's token that the upstream answered with userId null",
      registers: [registry],
    })

    const { sources } = opts
    if (sources.breaker) {
      const breaker = sources.breaker
      new Gauge({
        name: 'gateway_upstream_breaker_state',
        help: 'The upstream circuit breaker: 1 for its current state',
        labelNames: ['state'],
        registers: [registry],
        collect() {
          const current = breaker()
          for (const state of ['closed', 'open', 'half-open'] as const)
            this.set({ state }, state === current ? 1 : 0)
        },
      })
    }
    if (sources.streams) streamMetrics(registry, sources.streams)
    if (sources.quotes) quoteMetrics(registry, sources.quotes)
    if (sources.catalog) catalogMetrics(registry, sources.catalog)
    if (sources.upstreamQuota) quotaMetrics(registry, sources.upstreamQuota)
    if (sources.tenantKeyRefusals) {
      sourced(
        registry,
        sources.tenantKeyRefusals,
        'counter',
        'gateway_upstream_tenant_key_refused_total',
        'Upstream answers that refused TENANT_API_KEY',
        (n) => n,
      )
    }
    if (sources.undeclaredProblems) {
      sourced(
        registry,
        sources.undeclaredProblems,
        'counter',
        'gateway_http_undeclared_problems_total',
        'Problem documents sent with a code their route does not declare (each also an error log line)',
        (n) => n,
      )
    }
    if (sources.readiness) readinessMetrics(registry, sources.readiness)
    if (sources.redisUp) {
      const redisUp = sources.redisUp
      new Gauge({
        name: 'gateway_redis_up',
        help: '1 while the Redis shared by the instances is reachable',
        registers: [registry],
        collect() {
          this.set(redisUp() ? 1 : 0)
        },
      })
    }

    app.addHook('onResponse', (request, reply, done) => {
      const route = routeUrlOf(request) ?? 'unmatched'
      const values = { method: request.method, route, status: String(reply.statusCode) }
      latency.observe(values, reply.elapsedTime / 1000)
      const code = request.problemCode
      if (code) problems.inc({ route, code })
      if (code === 'RATE_LIMITED') rateLimited.inc({ group: String(groupOf(request)) })
      if (reply.getHeader('idempotent-replayed') === 'true') replays.inc()
      done()
    })

    app.decorate('metrics', {
      registry,
      refusedUpstream: (operation, reason) => refusals.inc({ operation, reason }),
      observeUpstream(o: CallObservation) {
        upstreamLatency.observe({ operation: o.operation, outcome: o.outcome }, o.ms / 1000)
        if (o.outcome !== 'ok') upstreamErrors.inc({ operation: o.operation, code: o.outcome })
      },
      revocationFailed: (operation) => revocationFailures.inc({ operation }),
      orderUnattributed: () => unattributed.inc(),
    } satisfies GatewayMetrics)
  },
  { name: 'metrics' },
)
