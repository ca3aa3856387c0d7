// Readiness's view of the upstream: reached recently. An idle gateway calls the upstream only when
// the catalog reloads (every `idleCallEveryMs`), so the window spans two reloads: otherwise an idle
// instance would leave the load balancer a minute after its last request.
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
    problem: () => (clock.now() - client.lastAnswerAt < windowMs ? undefined : 'no upstream answer recently'),
  }
}
