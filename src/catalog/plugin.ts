// The catalog capability: the cache of the upstream's token catalog, its public routes, the token
// guard used by pricing and orders, and readiness and counters for the operators.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { PairGuard } from '../contracts/pair-and-credentials.js'
import { catalogSchema } from '../upstream/schemas.js'
import { DerivedBodies } from './bodies.js'
import { CatalogCache, type CatalogStats, type CatalogTuning, DEFAULT_CATALOG_TUNING } from './cache.js'
import { catalogMetrics } from './metrics.js'
import { TokenGuard } from './guard.js'
import { catalogRoutes } from './routes.js'
import { bodySender } from './send.js'

export interface CatalogHandle {
  stats(): CatalogStats
  /** Two token ids a pricing call may name (from the catalog, waiting for a load): undefined if none. */
  tradablePair(): Promise<{ depositTokenId: number; settleTokenId: number } | undefined>
}

declare module 'fastify' {
  interface FastifyInstance {
    tokenGuard: PairGuard
    catalog: CatalogHandle
  }
}

export interface CatalogOptions {
  apiPrefix: string
  /** CATALOG_TTL_MS: how long a loaded copy is fresh. */
  ttlMs: number
  /** CATALOG_MAX_STALE_MS: how long past its TTL a copy may still be served when loads fail. */
  maxStaleMs: number
  tuning?: Partial<CatalogTuning>
}

/** Browsers may reuse a body this long, and revalidate in the background this much longer (seconds). */
const CLIENT_MAX_AGE_S = 60
const CLIENT_STALE_WHILE_REVALIDATE_S = 300

export const catalogPlugin = fp(
  async (app: FastifyInstance, opts: CatalogOptions) => {
    const cache = new CatalogCache({
      clock: app.clock,
      random: app.random,
      ttlMs: opts.ttlMs,
      maxStaleMs: opts.maxStaleMs,
      tuning: { ...DEFAULT_CATALOG_TUNING, ...opts.tuning },
      log: app.log,
      fetch: async (trigger) => {
        const ctx = app.upstreamContextFor(trigger?.id ?? 'catalog-refresh', trigger?.log)
        const reply = await app.upstream.call(ctx, {
          operation: 'catalog',
          path: '/v1/tokens',
          schema: catalogSchema,
        })
        return reply.raw
      },
      upstreamPausedForMs: () => app.upstream.breaker.pausedForMs(),
    })
    // No copy yet is this instance's own state (it fails readiness); a copy past its maximum stale age
    // comes from an upstream outage every instance shares (it degrades it).
    app.readiness.add(
      { name: 'catalog', problem: () => (cache.held() ? undefined : cache.readiness()) },
      { name: 'catalog', degradesOnly: true, problem: () => (cache.held() ? cache.readiness() : undefined) },
    )
    catalogMetrics(app.metrics, () => cache.stats())
    app.decorate('catalog', {
      stats: () => cache.stats(),
      tradablePair: async () => {
        const read = await cache.read({ id: 'tenant-key-check', log: app.log }).catch(() => undefined)
        const tokens = read?.version.tokens ?? []
        const deposit = tokens.find((t) => t.active && t.blockchain.depositsActive)
        const settle = tokens.find((t) => t.active && t.id !== deposit?.id)
        return deposit && settle ? { depositTokenId: deposit.id, settleTokenId: settle.id } : undefined
      },
    } satisfies CatalogHandle)
    app.decorate('tokenGuard', new TokenGuard(cache))

    const maxAge = Math.min(CLIENT_MAX_AGE_S, Math.ceil(opts.ttlMs / 1000))
    await app.register(catalogRoutes, {
      prefix: opts.apiPrefix,
      cache,
      bodies: new DerivedBodies(cache.work),
      send: bodySender(
        `public, max-age=${maxAge}, stale-while-revalidate=${CLIENT_STALE_WHILE_REVALIDATE_S}`,
      ),
    })
    app.addHook('onReady', () => cache.start())
    app.addHook('onClose', async () => cache.close())
  },
  {
    name: 'catalog',
    dependencies: ['metrics', 'readiness', 'problem-handler', 'upstream'],
    decorators: { fastify: ['clock', 'random', 'metrics', 'readiness'] },
  },
)
