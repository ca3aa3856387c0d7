// POST /v1/orders/create, GET /v1/orders/:uuid and GET /v1/orders (history).
import type { FastifyInstance } from 'fastify'
import { isValidAddress } from '../addresses/validate.js'
import { requireAccessToken, requireTenantOrToken } from '../auth/credentials.js'
import type { SandboxContext } from '../context.js'
import { businessError, unknownOrderError } from '../envelopes.js'
import { orderInsertError, tokenLookupError } from '../orders/raw-database-error.js'
import { createdView, detailsView, historyView } from '../orders/views.js'
import { findToken, requireTradePath } from '../pricing/pair.js'
import { parseHistoryQuery } from './history-query.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function tokenId(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value
  throw tokenLookupError(value)
}

export function orderRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v1/orders/create', async (request, reply) => {
    const userId = await requireTenantOrToken(request, ctx.accessTokens, ctx.tenantKey)
    const body = isRecord(request.body) ? request.body : {}
    const deposit = findToken(ctx.catalog, 'deposit', tokenId(body.depositTokenId))
    const settle = findToken(ctx.catalog, 'settle', tokenId(body.settleTokenId))
    requireTradePath(deposit, settle)
    const { receivingAddress, intendedAmount, intendedIsDeposit } = body
    const format = ctx.catalog.chainSpec(settle.token.blockchainId).format
    if (typeof receivingAddress !== 'string' || !isValidAddress(format, receivingAddress)) {
      throw businessError(`Invalid ${settle.token.blockchain.network} address: ${String(receivingAddress)}`)
    }
    if (typeof intendedAmount !== 'number' || !Number.isFinite(intendedAmount)) {
      throw orderInsertError('intendedAmount', 'Float', intendedAmount)
    }
    if (typeof intendedIsDeposit !== 'boolean')
      throw orderInsertError('intendedIsDeposit', 'Boolean', intendedIsDeposit)
    const order = ctx.orders.create({
      deposit,
      settle,
      receivingAddress,
      intendedAmount,
      intendedIsDeposit,
      userId,
    })
    return reply.code(201).send(createdView(order))
  })

  app.get<{ Params: { uuid: string } }>('/v1/orders/:uuid', async (request) => {
    const order = UUID.test(request.params.uuid)
      ? ctx.orders.find(request.params.uuid.toLowerCase())
      : undefined
    if (!order) throw unknownOrderError()
    return detailsView(order, ctx.catalog)
  })

  app.get<{ Querystring: Record<string, unknown> }>('/v1/orders', async (request) => {
    const claims = await requireAccessToken(request, ctx.accessTokens)
    const { current, limit } = parseHistoryQuery(request.query)
    // Newest first; the spec leaves the order unspecified.
    const mine = ctx.orders
      .all()
      .filter((order) => order.userId === claims.sub)
      .reverse()
    const items = mine
      .slice((current - 1) * limit, current * limit)
      .map((order) => historyView(order, ctx.catalog))
    return {
      status: 200,
      items,
      meta: {
        currentPage: current,
        itemCount: items.length,
        itemsPerPage: limit,
        totalPages: Math.ceil(mine.length / limit),
        totalItems: mine.length,
      },
    }
  })
}
