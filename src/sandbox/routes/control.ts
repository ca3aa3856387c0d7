// The control API over HTTP, for tests and demos that run the sandbox as a separate process.
// Registered under the /__sandbox prefix, exempt from the Origin rule and the request log.
// Errors are plain `{error}` bodies: 400 bad input, 404 unknown order/token/chain, 409 a
// transition the order's state forbids.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { isAddress } from 'viem'
import { z } from 'zod'
import { newTokenSchema } from '../catalog/catalog.js'
import type { SandboxControl } from '../control.js'
import { InvalidTransitionError, UnknownEntityError } from '../control-errors.js'
import { faultSchema } from '../faults.js'
import { ROUTE_KEYS } from '../route-keys.js'

const depositBody = z.object({ amount: z.number().optional(), txHash: z.string().min(1).optional() })
const progressBody = z.object({ settleAmount: z.number() })
const completeBody = z.object({ settleAmount: z.number().optional() })
const advanceBody = z.object({ ms: z.number().nonnegative() })
const faultBody = z.intersection(z.object({ route: z.enum(ROUTE_KEYS) }), faultSchema)
const activeBody = z.object({ active: z.boolean() })
const priceBody = z.object({ usdPrice: z.number().positive() })
const depositsActiveBody = z.object({ depositsActive: z.boolean() })
const streamsBody = z.object({ uuid: z.string().optional() })
const refreshWorksBody = z.object({ works: z.boolean() })
const accessTokenBody = z.object({
  address: z.string().refine((value) => isAddress(value, { strict: false }), 'not an EVM address'),
  chainId: z.union([z.string(), z.number()]).transform(String),
})
const idParam = z.object({ id: z.coerce.number().int() })

function statusOf(error: unknown): number {
  if (error instanceof z.ZodError) return 400
  if (error instanceof UnknownEntityError) return 404
  if (error instanceof InvalidTransitionError) return 409
  const status = (error as { statusCode?: unknown }).statusCode
  return typeof status === 'number' && status < 500 ? status : 500
}

export function controlRoutes(control: SandboxControl) {
  return async (app: FastifyInstance): Promise<void> => {
    app.setErrorHandler((error, _request, reply: FastifyReply) => {
      const message = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message
      return reply.code(statusOf(error)).send({ error: message })
    })
    app.setNotFoundHandler((request, reply) =>
      reply.code(404).send({ error: `No control route ${request.url}` }),
    )

    const orderPath = '/orders/:uuid'
    type WithUuid = { Params: { uuid: string } }

    app.get('/orders', async () => control.orders())
    app.get<WithUuid>(orderPath, async (request) => {
      const order = control.order(request.params.uuid)
      if (!order) throw new UnknownEntityError(`Unknown order ${request.params.uuid}`)
      return order
    })
    app.post<WithUuid>(`${orderPath}/deposit`, async (request) =>
      control.deposit(request.params.uuid, depositBody.parse(request.body ?? {})),
    )
    app.post<WithUuid>(`${orderPath}/confirm`, async (request) => control.confirm(request.params.uuid))
    app.post<WithUuid>(`${orderPath}/progress`, async (request) =>
      control.progress(request.params.uuid, progressBody.parse(request.body ?? {}).settleAmount),
    )
    app.post<WithUuid>(`${orderPath}/complete`, async (request) =>
      control.complete(request.params.uuid, completeBody.parse(request.body ?? {}).settleAmount),
    )
    app.post<WithUuid>(`${orderPath}/fail`, async (request) => control.fail(request.params.uuid))
    app.post<WithUuid>(`${orderPath}/expire`, async (request) => control.expire(request.params.uuid))

    app.post('/time/advance', async (request) => {
      control.advanceTime(advanceBody.parse(request.body ?? {}).ms)
      return { now: control.now() }
    })

    app.post('/faults', async (request, reply) => {
      const { route, ...fault } = faultBody.parse(request.body ?? {})
      control.fault(route, fault)
      return reply.code(201).send({ route, fault })
    })
    app.delete('/faults', async (_request, reply) => {
      control.clearFaults()
      return reply.code(204).send()
    })

    app.get('/requests', async () => control.requests)
    app.delete('/requests', async (_request, reply) => {
      control.clearRequests()
      return reply.code(204).send()
    })

    app.post('/tokens', async (request, reply) =>
      reply.code(201).send(control.addToken(newTokenSchema.parse(request.body ?? {}))),
    )
    app.patch('/tokens/:id', async (request) =>
      control.setTokenActive(idParam.parse(request.params).id, activeBody.parse(request.body ?? {}).active),
    )
    app.put('/tokens/:id/price', async (request) =>
      control.setTokenPrice(idParam.parse(request.params).id, priceBody.parse(request.body ?? {}).usdPrice),
    )
    app.patch('/chains/:id', async (request) =>
      control.setDepositsActive(
        idParam.parse(request.params).id,
        depositsActiveBody.parse(request.body ?? {}).depositsActive,
      ),
    )

    app.get<{ Querystring: { uuid?: string } }>('/streams', async (request) => ({
      open: control.openStreams(request.query.uuid),
    }))
    app.post('/streams/close', async (request) => ({
      closed: control.closeStreams(streamsBody.parse(request.body ?? {}).uuid),
    }))

    app.put('/auth/refresh-works', async (request) => {
      const { works } = refreshWorksBody.parse(request.body ?? {})
      control.setRefreshWorks(works)
      return { refreshWorks: works }
    })
    app.post('/auth/access-token', async (request) => {
      const { address, chainId } = accessTokenBody.parse(request.body ?? {})
      return { accessToken: control.issueAccessToken(address, chainId) }
    })
    app.post('/sessions/lapse', async (_request, reply) => {
      control.lapseSessions()
      return reply.code(204).send()
    })
  }
}
