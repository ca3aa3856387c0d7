// The live quotes' metrics: client streams, the distinct quotes polled for them, and their refreshes.
import type { Metrics } from '../observability/metrics.js'
import type { QuoteHub } from './hub.js'

export function quoteMetrics(metrics: Metrics, hub: QuoteHub): void {
  metrics.read(() => hub.stats(), {
    gateway_quote_streams_open: {
      kind: 'gauge',
      help: 'Client live quote streams open',
      pick: (s) => s.openStreams,
    },
    gateway_quote_polled: {
      kind: 'gauge',
      help: 'Distinct quotes polled now (one upstream quote each per QUOTE_REFRESH_MS, however many watch it)',
      pick: (s) => s.polled,
    },
    gateway_quote_refreshes_total: {
      kind: 'counter',
      help: 'Upstream quotes asked for by live quote polls',
      pick: (s) => s.refreshes,
    },
    gateway_quote_refreshes_refused_total: {
      kind: 'counter',
      help: 'Live quote refreshes held back by UPSTREAM_MAX_RPS or the pause after an upstream 429',
      pick: (s) => s.refused,
    },
    gateway_quote_events_sent_total: {
      kind: 'counter',
      help: 'Events sent to live quote clients',
      pick: (s) => s.eventsSent,
    },
  })
}
