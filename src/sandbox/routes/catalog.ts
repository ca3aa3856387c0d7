// GET /v1/tokens, GET /v1/tokens/swap-limits and GET /v1/tokens/quote. Pricing routes check the
// credential first, then the framework pipes (400), then the tokens (500), then the amount.
import type { FastifyInstance } from 'fastify'
import { requireTenantOrToken } from '../auth/credentials.js'
import type { SandboxContext } from '../context.js'
import { businessError } from '../envelopes.js'
import { swapLimits } from '../pricing/limits.js'
import { resolvePair } from '../pricing/pair.js'
import { NO_QUOTE, priceQuote } from '../pricing/quote.js'
import { parseBoolParam, parseIntParam, quoteAmount } from './pipes.js'

type Query = Record<string, unknown>

export function catalogRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/v1/tokens', async (_request, reply) => {
    return reply.type('application/json; charset=utf-8').send(ctx.catalog.json())
  })

  app.get<{ Querystring: Query }>('/v1/tokens/swap-limits', async (request) => {
    await requireTenantOrToken(request, ctx.accessTokens, ctx.tenantKey)
    const depositTokenId = parseIntParam(request.query.depositTokenId)
    const settleTokenId = parseIntParam(request.query.settleTokenId)
    const { deposit, settle } = resolvePair(ctx.catalog, depositTokenId, settleTokenId)
    return swapLimits(deposit, settle)
  })

  app.get<{ Querystring: Query }>('/v1/tokens/quote', async (request) => {
    await requireTenantOrToken(request, ctx.accessTokens, ctx.tenantKey)
    const depositTokenId = parseIntParam(request.query.depositTokenId)
    const settleTokenId = parseIntParam(request.query.settleTokenId)
    const amountIsDeposit = parseBoolParam(request.query.amountIsDeposit)
    const { deposit, settle } = resolvePair(ctx.catalog, depositTokenId, settleTokenId)
    const amount = quoteAmount(request.query.amount)
    if (amount === undefined) return NO_QUOTE
    if (amount <= 0) throw businessError(`Invalid amount: ${amount}`)
    return priceQuote(deposit, settle, amount, amountIsDeposit)
  })
}
