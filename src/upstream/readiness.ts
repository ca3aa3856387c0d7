// Readiness's view of the upstream, a dependency every instance shares: its trouble degrades /readyz
// (a 200 naming it) and never fails it, or one outage would take every instance out of the load
// balancer in the same second. Trouble is: calls paused by the breaker or by an upstream 429, or no
// answer for a while. An idle gateway calls the upstream only when the catalog reloads (every
// `idleCallEveryMs`), so that window spans two reloads.
import type { Clock } from '../clock.js'
import type { ReadinessCheck } from '../ops/health.js'
import type { UpstreamClient } from './client.js'

const MIN_WINDOW_MS = 60_000

export function upstreamReadiness(
  client: UpstreamClient,
  clock: Clock,
  idleCallEveryMs: number,
): ReadinessCheck {
  const windowMs = Math.max(MIN_WINDOW_MS, 2 * idleCallEveryMs)
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
