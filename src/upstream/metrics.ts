// The upstream's metrics: each call attempt by operation and outcome, the calls not sent and why, the
// breaker's state, the fleet's call budget and the pause after a 429, and TENANT_API_KEY refusals.
import type { Metrics } from '../observability/metrics.js'
import { LATENCY_BUCKETS } from '../observability/metrics.js'
import type { Operation } from './classify.js'
import type { CallObservation } from './call.js'
import type { UpstreamClient } from './client.js'
import type { QuotaStats, RefusalReason } from './gates.js'
import type { TenantKeyWatch } from './tenant-key.js'

/** What the client reports as it calls: counted here. */
export function callMetrics(metrics: Metrics) {
  const latency = metrics.histogram({
    name: 'gateway_upstream_call_duration_seconds',
    help: 'Upstream call attempts, by operation and outcome (ok or our error code)',
    labelNames: ['operation', 'outcome'],
    buckets: LATENCY_BUCKETS,
  })
  const errors = metrics.counter({
    name: 'gateway_upstream_call_errors_total',
    help: 'Upstream call attempts that did not succeed, by operation and error code',
    labelNames: ['operation', 'code'],
  })
  const refusals = metrics.counter({
    name: 'gateway_upstream_calls_refused_total',
    help: 'Upstream calls not sent (no attempt counted), by operation and reason: breaker, cool_down, budget or deadline',
    labelNames: ['operation', 'reason'],
  })
  return {
    observe(o: CallObservation) {
      latency.observe({ operation: o.operation, outcome: o.outcome }, o.ms / 1000)
      if (o.outcome !== 'ok') errors.inc({ operation: o.operation, code: o.outcome })
    },
    refused: (operation: Operation, reason: RefusalReason) => refusals.inc({ operation, reason }),
  }
}

/** What the client and the key's watch keep: read at scrape time. */
export function stateMetrics(metrics: Metrics, client: UpstreamClient, tenantKey: TenantKeyWatch) {
  metrics.gauge({
    name: 'gateway_upstream_breaker_state',
    help: 'The upstream circuit breaker: 1 for its current state',
    labelNames: ['state'],
    collect() {
      const current = client.breaker.current
      for (const state of ['closed', 'open', 'half-open'] as const)
        this.set({ state }, state === current ? 1 : 0)
    },
  })
  metrics.read((): QuotaStats => client.quotaStats(), {
    gateway_upstream_budget_refused_total: {
      kind: 'counter',
      help: 'Upstream calls refused because UPSTREAM_MAX_RPS was spent for that second',
      pick: (s) => s.budgetRefused,
    },
    gateway_upstream_budget_unshared_total: {
      kind: 'counter',
      help: 'Upstream calls counted in this instance alone because Redis could not be reached',
      pick: (s) => s.budgetUnshared,
    },
    gateway_upstream_cooldown_seconds: {
      kind: 'gauge',
      help: 'Seconds left of the pause after an upstream 429 (0 when calls may go out)',
      pick: (s) => s.coolDownMs / 1000,
    },
    gateway_upstream_cooldowns_total: {
      kind: 'counter',
      help: 'Upstream 429 answers seen by this instance',
      pick: (s) => s.coolDowns,
    },
    gateway_upstream_cooldown_refused_total: {
      kind: 'counter',
      help: 'Upstream calls refused during the pause after an upstream 429',
      pick: (s) => s.coolDownRefused,
    },
  })
  metrics.read(() => tenantKey.refusals, {
    gateway_upstream_tenant_key_refused_total: {
      kind: 'counter',
      help: 'Upstream answers that refused TENANT_API_KEY',
      pick: (n) => n,
    },
  })
}
