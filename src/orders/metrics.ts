// The orders' metrics: creates answered from a stored Idempotency-Key response, and orders the upstream
// created without the session's user.
import type { Metrics } from '../observability/metrics.js'

export interface OrderCounts {
  replayed(): void
  unattributed(): void
}

export function orderMetrics(metrics: Metrics): OrderCounts {
  const replays = metrics.counter({
    name: 'gateway_idempotent_replays_total',
    help: 'Order creations answered from a stored Idempotency-Key response',
  })
  const unattributed = metrics.counter({
    name: 'gateway_orders_unattributed_total',
    help: "Orders created with a session's token that the upstream answered with userId null",
  })
  return { replayed: () => replays.inc(), unattributed: () => unattributed.inc() }
}
