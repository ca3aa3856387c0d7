// The pricing and order capability: quote, swap limits, create, read. Shares its OrderReader so the
// status stream reads orders through the same coalescing.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { createRoute } from './create-route.js'
import { OrderCreations } from './creations.js'
import { historyRoute } from './history-route.js'
import { type IdempotencyStore, MemoryIdempotencyStore } from './idempotency-store.js'
import { orderMetrics } from './metrics.js'
import { pricingRoutes } from './pricing-routes.js'
import { OrderReader } from './read.js'
import { readRoute } from './read-route.js'
import { RedisIdempotencyStore } from './redis-idempotency-store.js'

declare module 'fastify' {
  interface FastifyInstance {
    orderReader: OrderReader
    /** Each order created through this instance, for the watch. */
    orderCreations: OrderCreations
  }
}

export interface OrdersOptions {
  apiPrefix: string
  publicOrigin: string
  /** How long an Idempotency-Key claim may stay "running" if the process dies mid-request. */
  claimTtlMs: number
}

const DAY_MS = 24 * 60 * 60 * 1000

export const ordersPlugin = fp(
  async (app: FastifyInstance, opts: OrdersOptions) => {
    const { clock } = app
    const reader = new OrderReader(app.upstream, clock)
    app.decorate('orderReader', reader)
    const creations = new OrderCreations()
    app.decorate('orderCreations', creations)
    const idempotency = app.stores.create<IdempotencyStore>('idempotency', {
      memory: () => new MemoryIdempotencyStore(),
      redis: (link, prefix) =>
        new RedisIdempotencyStore(link, {
          fallback: new MemoryIdempotencyStore(),
          log: app.log,
          clock,
          prefix,
        }),
    })
    // What orders need of the catalog and auth, as the shapes of contracts/pair-and-credentials.ts.
    const routes = { ...opts, clock, guard: app.tokenGuard, credentials: app.sessions }
    await app.register(
      async (scope) => {
        await scope.register(pricingRoutes, routes)
        await scope.register(createRoute, {
          ...routes,
          idempotency,
          counts: orderMetrics(app.metrics),
          creations,
          replayTtlMs: DAY_MS,
        })
        await scope.register(readRoute, { reader })
        await scope.register(historyRoute, { credentials: app.sessions })
      },
      { prefix: opts.apiPrefix },
    )
  },
  {
    name: 'orders',
    dependencies: ['metrics', 'problem-handler', 'upstream', 'redis', 'catalog', 'auth'],
    decorators: { fastify: ['clock', 'metrics', 'stores', 'tokenGuard', 'sessions'] },
  },
)
