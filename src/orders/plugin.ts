// The pricing and order capability: quote, swap limits, create, read. Shares its OrderReader so the
// status stream reads orders through the same coalescing.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Clock } from '../clock.js'
import { createRoute } from './create-route.js'
import { historyRoute } from './history-route.js'
import type { IdempotencyStore } from './idempotency-store.js'
import type { CredentialSource, PairGuard } from './pair-and-credentials.js'
import { pricingRoutes } from './pricing-routes.js'
import { OrderReader } from './read.js'
import { readRoute } from './read-route.js'

declare module 'fastify' {
  interface FastifyInstance {
    orderReader: OrderReader
  }
}

export interface OrdersOptions {
  apiPrefix: string
  publicOrigin: string
  clock: Clock
  guard: PairGuard
  credentials: CredentialSource
  idempotency: IdempotencyStore
  claimTtlMs: number
}

const DAY_MS = 24 * 60 * 60 * 1000

export const ordersPlugin = fp(
  async (app: FastifyInstance, opts: OrdersOptions) => {
    const reader = new OrderReader(app.upstream, opts.clock)
    app.decorate('orderReader', reader)
    await app.register(
      async (scope) => {
        await scope.register(pricingRoutes, opts)
        await scope.register(createRoute, { ...opts, replayTtlMs: DAY_MS })
        await scope.register(readRoute, { reader })
        await scope.register(historyRoute, { credentials: opts.credentials })
      },
      { prefix: opts.apiPrefix },
    )
  },
  { name: 'orders', dependencies: ['upstream'] },
)
