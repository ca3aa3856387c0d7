// The order status streams' metrics: client streams, the upstream subscriptions behind them, and what they did.
import type { Metrics } from '../observability/metrics.js'
import type { StatusHub } from './hub.js'

export function statusStreamMetrics(metrics: Metrics, hub: StatusHub): void {
  metrics.read(() => hub.stats(), {
    gateway_streams_open: { kind: 'gauge', help: 'Client status streams open', pick: (s) => s.openStreams },
    gateway_streams_preparing: {
      kind: 'gauge',
      help: 'Client status streams admitted whose order is still being read (no event sent yet)',
      pick: (s) => s.preparing,
    },
    gateway_upstream_subscriptions: {
      kind: 'gauge',
      help: 'Upstream status-stream subscriptions open (one per watched order)',
      pick: (s) => s.upstreamSubscriptions,
    },
    gateway_upstream_subscriptions_polling: {
      kind: 'gauge',
      help: 'Upstream subscriptions whose stream cannot be opened, so their order is polled instead',
      pick: (s) => s.polling,
    },
    gateway_upstream_stream_reopens_total: {
      kind: 'counter',
      help: 'Upstream status streams reopened after closing',
      pick: (s) => s.reconnects,
    },
    gateway_stream_polls_total: {
      kind: 'counter',
      help: 'Order reads made by polling while no upstream stream could be opened',
      pick: (s) => s.polls,
    },
    gateway_stream_events_sent_total: {
      kind: 'counter',
      help: 'Events sent to stream clients',
      pick: (s) => s.eventsSent,
    },
  })
}
