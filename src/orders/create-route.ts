// Order creation. Never retried by the gateway (each success is a new order and deposit address);
// an answer that never came is ORDER_OUTCOME_UNKNOWN. Idempotency-Key replays the first final answer.
// The 201 carries, beside the upstream's order, its two tokens from the catalog (as an order read
// does), so a client renders the order at once; a zero or negative amount, which the upstream would
// turn into a useless order, is INVALID_AMOUNT.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { clientKeyOf } from '../edge/client-ip.js'
import { BODY_FAILURES, TENANT_FAILURES } from '../edge/route-answers.js'
import { createdOrderSchema } from '../upstream/schemas.js'
import { orderCreated } from './bodies.js'
import { fingerprintOf } from './fingerprint.js'
import type { OrderCreations } from './creations.js'
import type { IdempotencyStore } from './idempotency-store.js'
import { createOnce, type IdempotencyTerms } from './idempotent.js'
import type { OrderCounts } from './metrics.js'
import type { CredentialSource, PairGuard } from '../contracts/pair-and-credentials.js'
import { type CreateBody, createBody, createHeaders } from './schemas.js'
import { problems } from '../problems.js'

export interface CreateOptions extends IdempotencyTerms {
  guard: PairGuard
  credentials: CredentialSource
  idempotency: IdempotencyStore
  counts: OrderCounts
  /** Told of each order created here (not of replays). */
  creations: OrderCreations
}

const JSON_TYPE = 'application/json; charset=utf-8'

const positiveAmount = (body: CreateBody) => {
  if (body.intendedAmount > 0) return
  throw problems.intendedAmountNotPositive()
}

export async function createRoute(app: FastifyInstance, opts: CreateOptions) {
  async function createUpstream(request: FastifyRequest, body: CreateBody, accessToken: string | undefined) {
    const ctx = request.upstreamContext()
    const tokens = await opts.guard.checkPair(ctx, body.depositTokenId, body.settleTokenId)
    const order = await app.upstream.call(ctx, {
      operation: 'create',
      method: 'POST',
      path: '/v1/orders/create',
      body,
      tenantKey: true,
      accessToken,
      schema: createdOrderSchema,
    })
    // The upstream's own fields as it sent them (order and all), the tokens added after them.
    const created = {
      ...(JSON.parse(order.raw.toString('utf8')) as object),
      depositToken: tokens.deposit,
      settleToken: tokens.settle,
    }
    request.log.info({ order: order.body.uuid.slice(0, 8) }, 'order created')
    if (accessToken !== undefined && order.body.userId === null) {
      // The upstream ignored a token the gateway held valid (its clock ahead of ours, say): the order
      // exists and is the caller's, but no history will list it.
      opts.counts.unattributed()
      request.log.warn(
        { order: order.body.uuid.slice(0, 8) },
        "order created without the session's user: the upstream did not accept its token",
      )
    }
    const answer = JSON.stringify(created)
    opts.creations.fire({ body: answer, at: app.clock.now() })
    return answer
  }

  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/orders/create',
    {
      schema: {
        body: createBody,
        headers: createHeaders,
        summary: 'Create an order',
        description:
          'Creates an order and its own deposit address. Send an `Idempotency-Key` to retry safely: a retry with the same key and body replays the first answer (`Idempotent-Replayed: true`) instead of creating a second order.',
        tags: ['orders'],
        operationId: 'createOrder',
      },
      config: {
        group: 'create',
        answers: {
          success: {
            201: {
              description:
                'The created order, with its deposit address (`walletAddress`) and its two tokens.',
              body: orderCreated,
              headers: {
                'Idempotent-Replayed':
                  '`true` when this is the stored answer of an earlier request with this Idempotency-Key.',
              },
            },
          },
          problems: [
            ...BODY_FAILURES,
            'UNKNOWN_TOKEN',
            'PAIR_UNAVAILABLE',
            'INVALID_AMOUNT',
            'INVALID_ADDRESS',
            'SESSION_EXPIRED',
            'IDEMPOTENCY_IN_PROGRESS',
            'IDEMPOTENCY_KEY_REUSED',
            'ORDER_OUTCOME_UNKNOWN',
            ...TENANT_FAILURES,
          ],
          session: 'optional',
        },
      },
    },
    async (request, reply) => {
      positiveAmount(request.body)
      const user = await opts.credentials.credentialsFor(request, 'reject')
      const create = () => createUpstream(request, request.body, user?.accessToken)
      const idempotencyKey = request.headers['idempotency-key']
      if (idempotencyKey === undefined)
        return reply
          .code(201)
          .type(JSON_TYPE)
          .send(await create())

      // Signed out, the key is the client's own (its address as rate limits count it): another client
      // can neither replay this order nor learn that the key is in use.
      const owner = user?.userKey ?? `client:${clientKeyOf(request)}`
      const key = `${owner}:${idempotencyKey}`
      const outcome = await createOnce(opts.idempotency, opts, key, fingerprintOf(request.body), create)
      if (outcome.replayed) {
        opts.counts.replayed()
        reply.header('idempotent-replayed', 'true')
      }
      return reply.code(201).type(JSON_TYPE).send(outcome.body)
    },
  )
}
