// GET <prefix>/orders/:uuid/status-stream (docs/stream.md). Everything that can fail is decided
// before the first byte: the uuid (400), the stream limits (429, 503), the order itself (404); then
// the response is taken over from Fastify and handed to the hub. The stream's place is taken in the
// SSE registry and given back there.
import { clientIpOf } from '../edge/client-ip.js'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { UPSTREAM_FAILURES } from '../edge/route-answers.js'
import { orderParams } from '../orders/schemas.js'
import type { SseRegistry } from '../sse/registry.js'
import { openEventStream } from '../sse/response.js'
import { TERMINAL_STATUSES } from '../upstream/schemas.js'
import { deliveredEnd } from './event-ids.js'
import { SNAPSHOT_EVENT, STATUS_EVENT, snapshotEvent, statusUpdateEvent } from './events.js'
import type { OrderRead } from './feed.js'
import type { StatusHub } from './hub.js'

export interface StatusStreamRouteOptions {
  hub: StatusHub
  streams: SseRegistry
}

export async function statusStreamRoute(app: FastifyInstance, opts: StatusStreamRouteOptions) {
  const { hub, streams } = opts
  app.withTypeProvider<ZodTypeProvider>().get(
    '/orders/:uuid/status-stream',
    {
      schema: {
        params: orderParams,
        summary: 'Follow an order: a snapshot, then every status change (Server-Sent Events)',
        description:
          'The order over Server-Sent Events: a snapshot first, then each status change, until a terminal status. Reconnects resume with `Last-Event-ID`.',
        tags: ['orders'],
        operationId: 'followOrder',
      },
      config: {
        group: 'stream',
        invalidCodes: { uuid: 'INVALID_ORDER_ID' },
        answers: {
          success: {
            200: {
              description: `Server-sent events (listed under \`x-events\`): \`${SNAPSHOT_EVENT}\` (the full order) first, then \`${STATUS_EVENT}\` per transition (the upstream's data plus \`order\`), a heartbeat comment every SSE_HEARTBEAT_MS; the stream ends after a terminal status.`,
              contentType: 'text/event-stream',
              body: z.string(),
              events: { [SNAPSHOT_EVENT]: snapshotEvent, [STATUS_EVENT]: statusUpdateEvent },
            },
            204: {
              description:
                "A reconnect (Last-Event-ID) from a stream that had already delivered the order's terminal status: stop reconnecting. A reconnect that missed it gets the snapshot and the terminal `orders:status-update` instead, then the end.",
            },
          },
          problems: ['INVALID_ORDER_ID', 'ORDER_NOT_FOUND', ...UPSTREAM_FAILURES],
        },
      },
      // A HEAD would hold a stream slot while sending nothing: streams are GET only.
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const { uuid } = request.params
      // Ranked when it joins its order's feed.
      const client = streams.admit(clientIpOf(request), 'status', { rank: -1 })
      let read: OrderRead
      try {
        read = await app.orderReader.read(request.upstreamContext(), uuid)
      } catch (err) {
        streams.release(client)
        throw err
      }
      // Decided from the event id alone, so every instance answers a reconnect alike (event-ids.ts).
      const header = request.headers['last-event-id']
      const lastEventId = Array.isArray(header) ? header[0] : header
      const terminal = TERMINAL_STATUSES.has(read.body.status)
      if (terminal && lastEventId !== undefined && deliveredEnd(lastEventId)) {
        // It has the end: 204 is what makes EventSource stop for good.
        streams.release(client)
        return reply.code(204).header('cache-control', 'no-store').send()
      }
      hub.attach(
        client,
        uuid,
        openEventStream(reply, streams.draining),
        read,
        terminal && lastEventId !== undefined,
      )
    },
  )
}
