// Reading one order by uuid. A malformed uuid never reaches the upstream; the upstream's 500 for a
// missing order becomes ORDER_NOT_FOUND (in upstream/classify.ts).
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { UPSTREAM_FAILURES } from '../edge/route-answers.js'
import { orderSchema } from '../upstream/schemas.js'
import type { OrderReader } from './read.js'
import { orderParams } from './schemas.js'

export async function readRoute(app: FastifyInstance, opts: { reader: OrderReader }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/orders/:uuid',
    {
      schema: {
        params: orderParams,
        summary: 'Read an order',
        description:
          'An order by its uuid, with its deposit address (`walletAddress`) and both tokens. The uuid is a bearer capability: anyone holding it can read the order.',
        tags: ['orders'],
        operationId: 'getOrder',
      },
      config: {
        group: 'orders',
        invalidCodes: { uuid: 'INVALID_ORDER_ID' },
        answers: {
          success: {
            200: {
              description: 'The order, with its expanded tokens. `Cache-Control: no-store`.',
              body: orderSchema,
            },
          },
          problems: ['INVALID_ORDER_ID', 'ORDER_NOT_FOUND', ...UPSTREAM_FAILURES],
        },
      },
    },
    async (request, reply) => {
      const order = await opts.reader.read(request.upstreamContext(), request.params.uuid)
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(order.raw)
    },
  )
}
