// The catalog's metrics: the cached copy's age and size, how reads were served, and its loads.
import type { Metrics } from '../observability/metrics.js'
import type { CatalogStats } from './cache.js'

export function catalogMetrics(metrics: Metrics, stats: () => CatalogStats): void {
  metrics.read(stats, {
    gateway_catalog_age_seconds: {
      kind: 'gauge',
      help: 'Seconds since the cached token catalog was loaded (absent before the first load)',
      pick: (s) => s.ageMs / 1000,
    },
    gateway_catalog_tokens: { kind: 'gauge', help: 'Tokens in the cached catalog', pick: (s) => s.tokens },
    gateway_catalog_cache_hits_total: {
      kind: 'counter',
      help: 'Catalog reads served from a fresh cached copy',
      pick: (s) => s.hits,
    },
    gateway_catalog_cache_misses_total: {
      kind: 'counter',
      help: 'Catalog reads that waited for a load',
      pick: (s) => s.misses,
    },
    gateway_catalog_cache_stale_total: {
      kind: 'counter',
      help: 'Catalog reads served from a stale copy',
      pick: (s) => s.staleServed,
    },
    gateway_catalog_refreshes_total: {
      kind: 'counter',
      help: 'Catalog loads from the upstream',
      pick: (s) => s.refreshes,
    },
    gateway_catalog_refresh_failures_total: {
      kind: 'counter',
      help: 'Catalog loads that failed',
      pick: (s) => s.refreshFailures,
    },
    gateway_catalog_forced_refreshes_total: {
      kind: 'counter',
      help: 'Catalog reloads forced by an unknown token id',
      pick: (s) => s.forcedRefreshes,
    },
  })
}
