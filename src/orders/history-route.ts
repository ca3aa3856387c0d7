// The signed-in user's order history: the upstream's {status, items, meta}, read with the session's
// access token. No session is AUTH_REQUIRED; a lapsed one, or one the upstream refuses, is
// SESSION_EXPIRED with a fresh challenge.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { queryField } from '../edge/field-messages.js'
import { UPSTREAM_FAILURES } from '../edge/route-answers.js'
import { onTheWire } from '../edge/wire-types.js'
import { GatewayError } from '../errors.js'
import { historySchema, MAX_PAGE_SIZE } from '../upstream/schemas.js'
import type { CallContext, UpstreamClient } from '../upstream/client.js'
import type { CredentialSource } from '../contracts/pair-and-credentials.js'
import { problems } from '../problems.js'

const page = (max: number) =>
  onTheWire(
    z
      .string({ error: queryField('must be a positive integer') })
      .regex(/^[1-9]\d{0,8}$/, 'must be a positive integer')
      .transform(Number)
      .refine((n) => n <= max, `must be at most ${max}`),
    { type: 'integer', minimum: 1, maximum: max },
  ).optional()

export const historyQuery = z.object({ current: page(999_999_999), limit: page(MAX_PAGE_SIZE) })

/** A page of the user's orders, read with their access token (the wallet stream's snapshot too). */
export const readHistory = (
  upstream: UpstreamClient,
  ctx: CallContext,
  accessToken: string,
  query: URLSearchParams,
) =>
  upstream.call(ctx, {
    operation: 'history',
    path: '/v1/orders',
    query: query.toString(),
    accessToken,
    schema: historySchema,
  })

export async function historyRoute(app: FastifyInstance, opts: { credentials: CredentialSource }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/orders',
    {
      schema: {
        querystring: historyQuery,
        summary: "The signed-in user's orders",
        description: "The signed-in user's orders, a page at a time (`current`, and `limit` up to 100).",
        tags: ['orders'],
        operationId: 'listOrders',
      },
      config: {
        group: 'orders',
        answers: {
          success: { 200: { description: "A page of the signed-in user's orders.", body: historySchema } },
          problems: ['VALIDATION_FAILED', 'AUTH_REQUIRED', 'SESSION_EXPIRED', ...UPSTREAM_FAILURES],
          session: 'required',
        },
      },
    },
    async (request, reply) => {
      const user = await opts.credentials.credentialsFor(request, 'reject')
      if (!user) throw problems.historyNeedsSignIn()
      const query = new URLSearchParams()
      if (request.query.current !== undefined) query.set('current', String(request.query.current))
      if (request.query.limit !== undefined) query.set('limit', String(request.query.limit))
      try {
        const history = await readHistory(app.upstream, request.upstreamContext(), user.accessToken, query)
        return reply
          .header('cache-control', 'no-store')
          .type('application/json; charset=utf-8')
          .send(history.raw)
      } catch (err) {
        if (err instanceof GatewayError && err.code === 'SESSION_EXPIRED')
          throw await opts.credentials.expired(request)
        throw err
      }
    },
  )
}
