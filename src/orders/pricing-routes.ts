// Quote and swap limits: validated, checked against the catalog, priced upstream with the tenant key
// (and the user's token when signed in). Identical quotes in flight share one upstream call.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Clock } from '../clock.js'
import { type RouteAnswers, TENANT_FAILURES } from '../edge/route-answers.js'
import type { UpstreamReply } from '../upstream/client.js'
import { Coalescer } from '../upstream/coalesce.js'
import { type Quote, quoteSchema, swapLimitsSchema } from '../upstream/schemas.js'
import type { CredentialSource, PairGuard } from '../contracts/pair-and-credentials.js'
import { isNoQuote, upstreamQuoteQuery } from './quote-request.js'
import { quoteQuery, swapLimitsQuery } from './schemas.js'
import { problems } from '../problems.js'

export interface PricingOptions {
  guard: PairGuard
  credentials: CredentialSource
  clock: Clock
}

const JSON_TYPE = 'application/json; charset=utf-8'
const PAIR_PROBLEMS: RouteAnswers['problems'] = ['VALIDATION_FAILED', 'UNKNOWN_TOKEN', 'PAIR_UNAVAILABLE']

export async function pricingRoutes(app: FastifyInstance, opts: PricingOptions) {
  const quotes = new Coalescer<UpstreamReply<Quote>>(opts.clock)
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get(
    '/v1/tokens/quote',
    {
      schema: {
        querystring: quoteQuery,
        summary: 'Price a pair',
        description:
          "Prices a pair from the swap service's live order books. Quotes do not enforce the swap limits: check those with `getSwapLimits`.",
        tags: ['pricing'],
        operationId: 'getQuote',
      },
      config: {
        group: 'pricing',
        invalidCodes: { amount: 'INVALID_AMOUNT' },
        answers: {
          success: {
            200: { description: "The upstream's quote, unknown fields included.", body: quoteSchema },
          },
          problems: [...PAIR_PROBLEMS, 'INVALID_AMOUNT', 'NO_QUOTE', ...TENANT_FAILURES],
          session: 'optional',
        },
      },
    },
    async (request, reply) => {
      const q = request.query
      const ctx = request.upstreamContext()
      await opts.guard.checkPair(ctx, q.depositTokenId, q.settleTokenId)
      const user = await opts.credentials.credentialsFor(request, 'ignore')
      const query = upstreamQuoteQuery(q)
      const key = `${query}|${user?.accessToken ?? ''}`
      const quote = await quotes.run(key, ctx, (shared) =>
        app.upstream.call(shared, {
          operation: 'quote',
          path: '/v1/tokens/quote',
          query,
          tenantKey: true,
          accessToken: user?.accessToken,
          schema: quoteSchema,
        }),
      )
      if (isNoQuote(quote.body)) throw problems.noQuote(q)
      return reply.header('cache-control', 'no-store').type(JSON_TYPE).send(quote.raw)
    },
  )

  routes.get(
    '/v1/tokens/swap-limits',
    {
      schema: {
        querystring: swapLimitsQuery,
        summary: 'Swap limits of a pair',
        description:
          "The pair's swap limits as the swap service gives them; their fields are not documented by the swap service.",
        tags: ['pricing'],
        operationId: 'getSwapLimits',
      },
      config: {
        group: 'pricing',
        answers: {
          success: {
            200: {
              description: "The pair's limits: the upstream's body, untouched.",
              body: swapLimitsSchema,
            },
          },
          problems: [...PAIR_PROBLEMS, ...TENANT_FAILURES],
          session: 'optional',
        },
      },
    },
    async (request, reply) => {
      const { depositTokenId, settleTokenId } = request.query
      const ctx = request.upstreamContext()
      await opts.guard.checkPair(ctx, depositTokenId, settleTokenId)
      const user = await opts.credentials.credentialsFor(request, 'ignore')
      const limits = await app.upstream.call(ctx, {
        operation: 'swapLimits',
        path: '/v1/tokens/swap-limits',
        // Parameters beyond the two ids are the upstream's business: forwarded exactly as given.
        query: new URLSearchParams(request.url.split('?')[1] ?? '').toString(),
        tenantKey: true,
        accessToken: user?.accessToken,
        schema: swapLimitsSchema,
      })
      return reply.header('cache-control', 'no-store').type(JSON_TYPE).send(limits.raw)
    },
  )
}
