// INTERIM (replaced by the catalog capability): loads the catalog once and guards pairs with it.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayError } from '../errors.js'
import type { PairGuard } from '../orders/ports.js'
import { catalogSchema, type Token } from '../upstream/schemas.js'

declare module 'fastify' {
  interface FastifyInstance {
    tokenGuard: PairGuard
  }
}

export const catalogPlugin = fp(
  async (app: FastifyInstance) => {
    let tokens = new Map<number, Token>()
    const guard: PairGuard = {
      async checkPair(ctx, depositTokenId, settleTokenId) {
        if (tokens.size === 0) {
          const reply = await app.upstream.call(ctx, { operation: 'catalog', path: '/v1/tokens', schema: catalogSchema })
          tokens = new Map(reply.body.map((t) => [t.id, t]))
        }
        for (const [side, id] of [['deposit', depositTokenId], ['settle', settleTokenId]] as const) {
          if (!tokens.has(id)) throw new GatewayError('UNKNOWN_TOKEN', `Unknown ${side} token.`, { members: { side, tokenId: id } })
        }
      },
    }
    app.decorate('tokenGuard', guard)
  },
  { name: 'catalog', dependencies: ['upstream'] },
)
