// The live quote hub: every live quote stream of this process, grouped by distinct quote into polls
// (one upstream quote per refresh interval per distinct quote, whatever the number of watchers). Its
// streams are held in the SSE registry (sse/registry.ts) with the others: the same limits, heartbeat,
// ends and shutdown.
import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import { type GatewayError, renderProblem } from '../errors.js'
import type { QuoteQuery } from '../orders/schemas.js'
import { eventFrame } from '../sse/frames.js'
import type { SseRegistry, StreamSource } from '../sse/registry.js'
import type { CallContext, UpstreamClient } from '../upstream/client.js'
import { quoteSchema } from '../upstream/schemas.js'
import { END_EVENT, ENDED_ID, PROBLEM_EVENT } from './events.js'
import { type PollHost, type QuoteClient, QuotePoll } from './poll.js'
import { problems, QuotaRefusal } from '../problems.js'

export interface QuoteHubOptions {
  clock: Clock
  log: FastifyBaseLogger
  upstream: UpstreamClient
  streams: SseRegistry
  /** QUOTE_REFRESH_MS, QUOTE_STREAM_MAX_SILENCE_MS. */
  refreshMs: number
  maxSilenceMs: number
  /** The context of each refresh the hub makes on its own. */
  contextFor(requestId: string, log: FastifyBaseLogger): CallContext
  /** Where problem `type` URIs point (errors.ts). */
  typeBase: string
}

export interface QuoteStats {
  openStreams: number
  /** Distinct quotes polled now: one upstream quote each per refresh interval. */
  polled: number
  /** Upstream quotes asked for by the polls (a stream's first quote included). */
  refreshes: number
  /** Refreshes the call budget or the pause after a 429 held back. */
  refused: number
  eventsSent: number
}

/** The last frame of a stream at its longest life: its id makes a browser's reconnect get 204. */
const ENDED = eventFrame({
  event: END_EVENT,
  id: ENDED_ID,
  data: JSON.stringify({ reason: 'QUOTE_STREAM_MAX_MS' }),
})

export class QuoteHub implements StreamSource {
  private readonly polls = new Map<string, QuotePoll>()
  private refreshes = 0
  private refused = 0

  constructor(private readonly opts: QuoteHubOptions) {
    opts.streams.register(this)
  }

  /**
   * Joins the client to its quote's poll and answers the stream's first event, or throws what the
   * quote route would answer (the client must then be released).
   */
  async start(client: QuoteClient, q: QuoteQuery, query: string, ctx: CallContext): Promise<Buffer> {
    let poll = this.polls.get(query)
    if (!poll) {
      poll = new QuotePoll(query, this.pollHost(q, query))
      this.polls.set(query, poll)
    }
    poll.join(client)
    return poll.first(ctx)
  }

  /** Takes over a response whose headers are written: the first quote, with the `retry:` advice. */
  attach(client: QuoteClient, res: ServerResponse, first: Buffer): void {
    const { streams } = this.opts
    if (!streams.attach(client, res)) return
    const opening = Buffer.concat([Buffer.from(`retry: ${streams.retryAdvice()}\n`), first])
    if (streams.draining) streams.farewell(client, opening)
    else streams.deliver(client, opening)
  }

  stats(): QuoteStats {
    return {
      openStreams: this.opts.streams.openOf('quote'),
      polled: this.polls.size,
      refreshes: this.refreshes,
      refused: this.refused,
      eventsSent: this.opts.streams.sentOf('quote'),
    }
  }

  groups(): Iterable<QuotePoll> {
    return this.polls.values()
  }

  /** At shutdown, after every client has been sent its goodbye: the polls left. */
  close(): void {
    for (const poll of [...this.polls.values()]) poll.close()
  }

  private pollHost(q: QuoteQuery, query: string): PollHost {
    const { clock, upstream, contextFor, streams, typeBase } = this.opts
    const log = this.opts.log.child({ quote: query })
    return {
      clock,
      log,
      refreshMs: this.opts.refreshMs,
      maxSilenceMs: this.opts.maxSilenceMs,
      // Each refresh gets its own deadline and id: the poll outlives any client request.
      context: () => contextFor(randomUUID(), log),
      fetch: (ctx, background) =>
        upstream.call(ctx, {
          operation: 'quote',
          path: '/v1/tokens/quote',
          query,
          tenantKey: true,
          schema: quoteSchema,
          // A refresh that fails is tried again at the next interval, not at once.
          ...(background ? { retries: 0 } : {}),
        }),
      // The 429 itself starts the pause: a refusal like those that follow it, not a failure to report.
      refused: (err) =>
        err instanceof QuotaRefusal ||
        ((err as GatewayError).code === 'UPSTREAM_UNAVAILABLE' && upstream.coolDown.remainingMs() > 0),
      noQuote: () => problems.noQuote(q),
      problemFrame: (error, requestId) =>
        eventFrame({ event: PROBLEM_EVENT, data: renderProblem(error, requestId, typeBase) }),
      deliver: (client, frame) => streams.deliver(client, frame),
      expire: (client) => streams.finish(client, ENDED),
      ended: (poll) => {
        if (this.polls.get(poll.key) === poll) this.polls.delete(poll.key)
      },
      counted: (what) => {
        this[what]++
      },
    }
  }
}
