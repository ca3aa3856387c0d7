// The watch's metrics: the orders this instance holds, the watches it took over from another
// instance, and the order events it reported (each event is counted by the one instance that won its
// report, so the fleet's sum counts each once).
import type { Metrics } from '../observability/metrics.js'
import type { OrderEvent } from './order-event.js'

export interface WatchCounts {
  takeover(): void
  reported(type: OrderEvent['type']): void
}

export function watchMetrics(metrics: Metrics, watched: () => number): WatchCounts {
  metrics.read(watched, {
    gateway_watched_orders: {
      kind: 'gauge',
      help: 'Orders this instance watches now (it holds their lease)',
      pick: (n) => n,
    },
  })
  const takeovers = metrics.counter({
    name: 'gateway_watch_takeovers_total',
    help: 'Watches this instance took over after their lease lapsed or was released',
  })
  const events = metrics.counter({
    name: 'gateway_order_events_total',
    help: 'Order events this instance reported (once for the fleet), by type',
    labelNames: ['type'],
  })
  return { takeover: () => takeovers.inc(), reported: (type) => events.inc({ type }) }
}
