// The watch (placeholder until the watch lands): `app.orderEvents`, where order events are published,
// and `app.orderWatch.follow(uuid)`, which starts following an order until it is terminal.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { OrderEvents } from './order-event.js'

export interface OrderWatch {
  /** Follows the order until it is terminal (idempotent): the push subscribe route and the wallet stream call it. */
  follow(orderId: string): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    orderEvents: OrderEvents
    orderWatch: OrderWatch
  }
}

export const watchPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('orderEvents', new OrderEvents())
    app.decorate('orderWatch', { follow: async () => {} })
  },
  { name: 'watch', fastify: '5.x' },
)
