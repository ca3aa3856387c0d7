// Readiness's view of the upstream, a dependency every instance shares: its trouble degrades /readyz
// (a 200 naming it) and never fails it, or one outage would take every instance out of the load
// balancer in the same second. Trouble is: calls paused by the breaker or by an upstream 429, or no
// answer for `windowMs` (READINESS_UPSTREAM_WINDOW_MS, and two catalog reloads at least: an idle
// gateway calls the upstream only when the catalog reloads; config.ts takes the larger).
import type { Clock } from '../clock.js'
import type { ReadinessCheck } from '../observability/readiness.js'
import type { UpstreamClient } from './client.js'

export function upstreamReadiness(client: UpstreamClient, clock: Clock, windowMs: number): ReadinessCheck {
  return {
    name: 'upstream',
    degradesOnly: true,
    problem: () => {
      if (client.breaker.current !== 'closed') return 'failing: calls are paused by the circuit breaker'
      const coolingMs = client.coolDown.remainingMs()
      if (coolingMs > 0) return `rate-limited: calls are paused for ${Math.ceil(coolingMs / 1000)} s`
      if (clock.now() - client.lastAnswerAt >= windowMs)
        return `no answer in the last ${Math.round(windowMs / 1000)} s`
      return undefined
    },
  }
}
