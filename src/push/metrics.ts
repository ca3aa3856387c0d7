// Web Push's metrics: each attempt's outcome, and the subscriptions held (fleet-wide with Redis).
import type { DeliveryOutcome } from '../deliveries/types.js'
import type { Metrics } from '../observability/metrics.js'
import type { PushSubscriptions } from './subscriptions.js'

export function pushMetrics(metrics: Metrics, store: PushSubscriptions): (outcome: DeliveryOutcome) => void {
  const sends = metrics.counter({
    name: 'gateway_push_sends_total',
    help: 'Push attempts by outcome: delivered, retried, failed (its last attempt), gone (404 or 410: deleted)',
    labelNames: ['outcome'],
  })
  metrics.gauge({
    name: 'gateway_push_subscriptions',
    help: 'Push subscriptions held (fleet-wide with Redis)',
    async collect() {
      try {
        this.set(await store.count())
      } catch {
        // Redis away: the figure is unknown (NaN), not zero (what a reset gauge shows).
        this.set(Number.NaN)
      }
    },
  })
  return (outcome) => sends.inc({ outcome })
}
