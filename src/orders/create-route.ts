// Order creation. Never retried by the gateway (each success is a new order and deposit address);
// an answer that never came is ORDER_OUTCOME_UNKNOWN. Idempotency-Key replays the first final answer.
// The 201 carries, beside the upstream's order, its two tokens from the catalog (as an order read
// does), so a client renders the order at once; a zero or negative amount, which the upstream would
// turn into a useless order, is INVALID_AMOUNT.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { toGatewayError } from '../edge/problems.js'
import { errorTypeBase, GatewayError, PROBLEM_CONTENT_TYPE, problemDocument } from '../errors.js'
import { orderSchema } from '../upstream/schemas.js'
import { fingerprintOf } from './fingerprint.js'
import type { IdempotencyStore, StoredResponse } from './idempotency-store.js'
import type { CredentialSource, PairGuard } from './ports.js'
import { type CreateBody, createBody, createHeaders } from './schemas.js'

export interface CreateOptions {
  guard: PairGuard
  credentials: CredentialSource
  idempotency: IdempotencyStore
  apiPrefix: string
  /** Stored problem documents name their `type` on it, as every problem does. */
  publicOrigin: string
  /** How long a final answer is replayed. */
  replayTtlMs: number
  /** How long a claim may stay "running" if the process dies mid-request. */
  claimTtlMs: number
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** 201s and final client errors are replayed; answers a retry could change (401, 409, 429, 5xx) are not. */
const isFinal = (status: number, retryable: boolean) =>
  status === 201 || (status >= 400 && status < 500 && status !== 401 && !retryable)

const positiveAmount = (body: CreateBody) => {
  if (body.intendedAmount > 0) return
  throw new GatewayError('INVALID_AMOUNT', 'The intended amount must be above zero.', {
    errors: [{ path: 'body.intendedAmount', message: 'must be a positive number' }],
  })
}

export async function createRoute(app: FastifyInstance, opts: CreateOptions) {
  const typeBase = errorTypeBase(opts.publicOrigin, opts.apiPrefix)

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
      schema: orderSchema,
    })
    // The upstream's own fields as it sent them (order and all), the tokens added after them.
    const created = {
      ...(JSON.parse(order.raw.toString('utf8')) as object),
      depositToken: tokens.deposit,
      settleToken: tokens.settle,
    }
    const response: StoredResponse = { status: 201, contentType: JSON_TYPE, body: JSON.stringify(created) }
    request.log.info({ order: order.body.uuid.slice(0, 8) }, 'order created')
    return response
  }

  function replay(request: FastifyRequest, reply: FastifyReply, stored: StoredResponse) {
    reply.header('idempotent-replayed', 'true')
    if (stored.contentType !== PROBLEM_CONTENT_TYPE) {
      return reply.code(stored.status).type(stored.contentType).send(stored.body)
    }
    const problem = { ...(JSON.parse(stored.body) as { code: string }), requestId: request.id }
    request.problemCode = problem.code
    return reply.code(stored.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem))
  }

  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/orders/create',
    {
      schema: { body: createBody, headers: createHeaders, summary: 'Create an order', tags: ['orders'] },
      config: { group: 'create' },
    },
    async (request, reply) => {
      positiveAmount(request.body)
      const user = await opts.credentials.credentialsFor(request, 'reject')
      const idempotencyKey = request.headers['idempotency-key']
      if (idempotencyKey === undefined) {
        const created = await createUpstream(request, request.body, user?.accessToken)
        return reply.code(201).type(created.contentType).send(created.body)
      }

      const key = `${user?.userKey ?? 'anonymous'}:${idempotencyKey}`
      const fingerprint = fingerprintOf(request.body)
      const existing = await opts.idempotency.claim(key, fingerprint, opts.claimTtlMs)
      if (existing && existing.fingerprint !== fingerprint) {
        throw new GatewayError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different body.',
        )
      }
      if (existing?.state === 'running') {
        throw new GatewayError('IDEMPOTENCY_IN_PROGRESS', 'The first request with this key is still running.')
      }
      if (existing?.state === 'done') return replay(request, reply, existing.response)

      let stored: StoredResponse | undefined
      try {
        const created = await createUpstream(request, request.body, user?.accessToken)
        stored = created
        return reply.code(201).type(created.contentType).send(created.body)
      } catch (err) {
        const error = toGatewayError(err, request)
        if (isFinal(error.status, error.retryable)) {
          // Stored without a request id: each replay carries its own.
          const body = JSON.stringify(problemDocument(error, '', typeBase))
          stored = { status: error.status, contentType: PROBLEM_CONTENT_TYPE, body }
        }
        throw error
      } finally {
        if (stored) await opts.idempotency.complete(key, fingerprint, stored, opts.replayTtlMs)
        else await opts.idempotency.release(key)
      }
    },
  )
}
