// GET <prefix>/v1/orders/stream: every order of the signed-in user on one stream (docs/stream.md).
// Everything that can fail is decided before the first byte: the session (401, SESSION_EXPIRED), the
// stream limits (429, 503), the snapshot's history read; then the response is taken over from Fastify
// and handed to the hub; the stream's place is taken in the SSE registry and given back there. A
// reconnect whose Last-Event-ID the user's log still holds gets the entries it missed instead of a
// snapshot.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { clientIpOf } from '../edge/client-ip.js'
import { UPSTREAM_FAILURES } from '../edge/route-answers.js'
import { GatewayError } from '../errors.js'
import { historyQuery, readHistory } from '../orders/history-route.js'
import { problems } from '../problems.js'
import { eventFrame } from '../sse/frames.js'
import type { SseRegistry } from '../sse/registry.js'
import { openEventStream } from '../sse/response.js'
import { TERMINAL_STATUSES } from '../upstream/schemas.js'
import {
  ORDER_CREATED_EVENT,
  orderCreatedEvent,
  STATUS_EVENT,
  statusUpdateEvent,
  WALLET_SNAPSHOT_EVENT,
  walletSnapshotEvent,
} from './events.js'
import { WalletHub, type WalletClient } from './hub.js'

/** The snapshot's page when the query names none. */
const DEFAULT_LIMIT = 20

const streamQuery = historyQuery.pick({ limit: true })

export async function walletStreamRoute(
  app: FastifyInstance,
  opts: { hub: WalletHub; streams: SseRegistry },
) {
  const { hub, streams } = opts
  const { sessions } = app

  /** The snapshot: the first page of the user's history; its orders still moving are watched. */
  async function snapshot(request: FastifyRequest, accessToken: string, limit: number, id: string) {
    let history
    try {
      const query = new URLSearchParams({ limit: String(limit) })
      history = await readHistory(app.upstream, request.upstreamContext(), accessToken, query)
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'SESSION_EXPIRED') throw await sessions.expired(request)
      throw err
    }
    const orders = history.body.items
    for (const order of orders) {
      if (TERMINAL_STATUSES.has(order.status)) continue
      app.orderWatch.follow(order.uuid).catch((err: unknown) => {
        request.log.warn({ err, order: order.uuid.slice(0, 8) }, 'could not watch an order of the snapshot')
      })
    }
    return eventFrame({ event: WALLET_SNAPSHOT_EVENT, id, data: JSON.stringify({ orders }) })
  }

  /** A fresh start: the snapshot, whose id is the log's newest entry ('' when none is kept). */
  async function fresh(request: FastifyRequest, client: WalletClient, accessToken: string, limit: number) {
    const latest = hub.logAvailable ? await hub.latest(client) : ''
    return { frame: await snapshot(request, accessToken, limit, latest), lastId: latest || '0-0' }
  }

  /** The entries a reconnect missed, or undefined when its id cannot be resumed from. */
  async function missed(client: WalletClient, lastEventId: string | undefined) {
    if (lastEventId === undefined || !hub.logAvailable) return undefined
    const entries = await hub.since(client, lastEventId.trim())
    if (!entries) return undefined
    return { frame: Buffer.concat(entries.map(WalletHub.frameOf)), lastId: entries.at(-1)?.id ?? lastEventId }
  }

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/orders/stream',
    {
      schema: {
        querystring: streamQuery,
        summary: "Follow all the signed-in user's orders on one stream (Server-Sent Events)",
        description:
          "The signed-in user's recent orders (a snapshot, `limit` up to 100, default 20), then each order they create and every status change of any of their orders, found by any instance, until the session is logged out or lapses. Reconnects resume with `Last-Event-ID`: the missed events, or a fresh snapshot when they are no longer kept.",
        tags: ['orders'],
        operationId: 'followMyOrders',
      },
      config: {
        group: 'stream',
        answers: {
          success: {
            200: {
              description: `Server-sent events (listed under \`x-events\`): \`${WALLET_SNAPSHOT_EVENT}\` (\`{orders}\`, the first page of the user's history) first, or on a reconnect within WALLET_EVENTS_RETAIN_MS the events it missed instead; then \`${ORDER_CREATED_EVENT}\` (the order) for each order the user creates and \`${STATUS_EVENT}\` (the status stream's update, with \`order\`) for each change of one of the user's orders; a heartbeat comment every SSE_HEARTBEAT_MS; the stream ends when the session is logged out or lapses.`,
              contentType: 'text/event-stream',
              body: z.string(),
              events: {
                [WALLET_SNAPSHOT_EVENT]: walletSnapshotEvent,
                [ORDER_CREATED_EVENT]: orderCreatedEvent,
                [STATUS_EVENT]: statusUpdateEvent,
              },
            },
          },
          problems: ['VALIDATION_FAILED', 'AUTH_REQUIRED', 'SESSION_EXPIRED', ...UPSTREAM_FAILURES],
          session: 'required',
        },
      },
      // A HEAD would hold a stream slot while sending nothing: streams are GET only.
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const read = await sessions.read(request)
      if (read.state === 'none') throw problems.signInRequired()
      if (read.state === 'lapsed') throw await sessions.expired(request)
      const { session } = read
      const client: WalletClient = streams.admit(clientIpOf(request), 'wallet', {
        session: {
          user: session.userId ?? session.address,
          lapsesAt: sessions.lapsesAt(session),
          stillOpen: () => sessions.stillOpen(session),
        },
        lastId: '0-0',
        live: false,
        lapse: undefined,
      })
      let opening: { frame: Buffer; lastId: string }
      try {
        await hub.join(client)
        const header = request.headers['last-event-id']
        opening =
          (await missed(client, Array.isArray(header) ? header[0] : header)) ??
          (await fresh(request, client, session.accessToken, request.query.limit ?? DEFAULT_LIMIT))
      } catch (err) {
        streams.release(client)
        throw err
      }
      hub.attach(client, openEventStream(reply, streams.draining), opening.frame, opening.lastId)
    },
  )
}
