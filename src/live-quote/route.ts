// GET <prefix>/v1/tokens/quote/stream: the live quote. Everything the quote route would refuse is
// refused before the first byte, with the same answer: the parameters (400), the pair (UNKNOWN_TOKEN,
// PAIR_UNAVAILABLE), the stream limits (429, 503), and the first quote itself (NO_QUOTE, upstream
// failures); then the response is taken over from Fastify and handed to the hub. The stream's place is
// taken in the SSE registry and given back there.
import { clientIpOf } from '../edge/client-ip.js'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { TENANT_FAILURES } from '../edge/route-answers.js'
import type { PairGuard } from '../contracts/pair-and-credentials.js'
import { upstreamQuoteQuery } from '../orders/quote-request.js'
import { quoteQuery } from '../orders/schemas.js'
import type { SseRegistry } from '../sse/registry.js'
import { openEventStream } from '../sse/response.js'
import {
  END_EVENT,
  ENDED_ID,
  endEvent,
  liveQuoteEvent,
  PROBLEM_EVENT,
  problemEvent,
  QUOTE_EVENT,
} from './events.js'
import type { QuoteHub } from './hub.js'

export interface LiveQuoteRouteOptions {
  hub: QuoteHub
  streams: SseRegistry
  guard: PairGuard
  /** QUOTE_STREAM_MAX_MS: a stream's longest life. */
  maxMs: number
}

export async function liveQuoteRoute(app: FastifyInstance, opts: LiveQuoteRouteOptions) {
  const { hub, streams, guard, maxMs } = opts
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/tokens/quote/stream',
    {
      schema: {
        querystring: quoteQuery,
        summary: 'Watch a quote: its price kept fresh while a user looks (Server-Sent Events)',
        description:
          "A quote kept fresh over Server-Sent Events while a user looks at it, until the stream's longest life.",
        tags: ['pricing'],
        operationId: 'watchQuote',
      },
      config: {
        group: 'pricing',
        invalidCodes: { amount: 'INVALID_AMOUNT' },
        answers: {
          success: {
            200: {
              description: `Server-sent events (listed under \`x-events\`): \`${QUOTE_EVENT}\` (the quote as the quote route answers it, plus \`quotedAt\`) at once, then whenever a refresh (one per QUOTE_REFRESH_MS, shared by every watcher of the same parameters) differs from the last one sent, and at least every QUOTE_STREAM_MAX_SILENCE_MS; \`${PROBLEM_EVENT}\` (a problem document) when a refresh fails, the refreshes going on; a heartbeat comment every SSE_HEARTBEAT_MS; \`${END_EVENT}\` after QUOTE_STREAM_MAX_MS, and the stream is closed.`,
              contentType: 'text/event-stream',
              body: z.string(),
              events: { [QUOTE_EVENT]: liveQuoteEvent, [PROBLEM_EVENT]: problemEvent, [END_EVENT]: endEvent },
            },
            204: {
              description: `A reconnect whose Last-Event-ID is the \`${END_EVENT}\` event's: stop reconnecting (open a new stream to watch again).`,
            },
          },
          problems: [
            'VALIDATION_FAILED',
            'UNKNOWN_TOKEN',
            'PAIR_UNAVAILABLE',
            'INVALID_AMOUNT',
            'NO_QUOTE',
            ...TENANT_FAILURES,
          ],
        },
      },
      // A HEAD would hold a stream slot while sending nothing: streams are GET only.
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      // A browser's EventSource reconnecting after the stream's longest life: 204 stops it for good.
      if (request.headers['last-event-id'] === ENDED_ID) {
        return reply.code(204).header('cache-control', 'no-store').send()
      }
      const q = request.query
      const ctx = request.upstreamContext()
      await guard.checkPair(ctx, q.depositTokenId, q.settleTokenId)
      const client = streams.admit(clientIpOf(request), 'quote', { endsAt: app.clock.now() + maxMs })
      let first: Buffer
      try {
        first = await hub.start(client, q, upstreamQuoteQuery(q), ctx)
      } catch (err) {
        streams.release(client)
        throw err
      }
      hub.attach(client, openEventStream(reply, streams.draining), first)
    },
  )
}
