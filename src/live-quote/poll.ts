// One distinct quote's shared poll: every stream watching the same parameters, and one upstream quote
// per refresh interval for all of them. A refresh that differs from the last one sent goes to every
// stream; an unchanged one only once the longest silence would otherwise be passed; a failure is one
// `problem` event (until it changes or a quote comes back); a refresh the tenant key's quota held back
// (call budget, the pause after a 429) sends nothing. The poll stops with its last stream.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, Timer } from '../clock.js'
import { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { StreamClient, StreamGroup } from '../sse/registry.js'
import { isNoQuote } from '../orders/quote-request.js'
import { eventFrame } from '../sse/frames.js'
import type { CallContext, UpstreamReply } from '../upstream/client.js'
import type { Quote } from '../upstream/schemas.js'
import { QUOTE_EVENT } from './events.js'

/** A live quote's client: what every stream holds, and when its stream must end. */
export interface QuoteClient extends StreamClient {
  /** Clock time after which the stream is ended (QUOTE_STREAM_MAX_MS after it was admitted). */
  readonly endsAt: number
}

/** What a poll needs from its hub. */
export interface PollHost {
  clock: Clock
  log: FastifyBaseLogger
  refreshMs: number
  maxSilenceMs: number
  /** A context of the poll's own, for refreshes no request is waiting for. */
  context(): CallContext
  /** One upstream quote; `background` refreshes are not retried (the next refresh is the retry). */
  fetch(ctx: CallContext, background: boolean): Promise<UpstreamReply<Quote>>
  /** Whether a failure is a refusal of the tenant key's quota rather than of the upstream. */
  refused(err: unknown): boolean
  /** The problem of a refresh that priced nothing (`exchangeRate: 0`), as the quote route words it. */
  noQuote(): GatewayError
  problemFrame(error: GatewayError, requestId: string): Buffer
  deliver(client: QuoteClient, frame: Buffer): void
  /** Ends a stream that reached its longest life. */
  expire(client: QuoteClient): void
  ended(poll: QuotePoll): void
  counted(what: 'refreshes' | 'refused'): void
}

type State =
  | { kind: 'quote'; raw: Buffer; body: Quote; at: number; frame: Buffer | undefined }
  | { kind: 'problem'; error: GatewayError; frame: Buffer }

export class QuotePoll implements StreamGroup {
  readonly clients = new Set<QuoteClient>()
  private state: State | undefined
  /** The refresh in flight; it resolves to the quota's refusal when one held it back. */
  private inFlight: Promise<GatewayError | undefined> | undefined
  private timer: Timer | undefined
  private lastStart = 0
  private lastSentAt = 0
  private closed = false

  constructor(
    readonly key: string,
    private readonly host: PollHost,
  ) {}

  join(client: QuoteClient): void {
    client.group = this
    this.clients.add(client)
  }

  leave(client: StreamClient): void {
    this.clients.delete(client as QuoteClient)
    client.group = undefined
    if (this.clients.size === 0) this.close()
  }

  /**
   * The first event of a stream that joined: the latest quote, priced now if the poll has none yet.
   * Throws what the quote route would answer instead: the poll's current failure, or the refusal.
   */
  async first(ctx: CallContext): Promise<Buffer> {
    const refusal = this.state ? undefined : await (this.inFlight ?? this.refresh(ctx))
    const state = this.state
    if (state?.kind === 'quote') return this.quoteFrame(state)
    const error = state?.error ?? refusal
    if (!error) throw problems.noLiveQuote()
    // A copy: the thrown error is rendered with this request's id.
    throw error.copy()
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.host.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.host.ended(this)
  }

  private refresh(ctx: CallContext | undefined): Promise<GatewayError | undefined> {
    this.inFlight ??= this.fetchOnce(ctx).finally(() => {
      this.inFlight = undefined
      this.schedule()
    })
    return this.inFlight
  }

  private async fetchOnce(given: CallContext | undefined): Promise<GatewayError | undefined> {
    const { host } = this
    const ctx = given ?? host.context()
    this.lastStart = host.clock.now()
    let reply: UpstreamReply<Quote>
    try {
      reply = await host.fetch(ctx, given === undefined)
    } catch (err) {
      if (host.refused(err)) {
        host.counted('refused')
        return err as GatewayError
      }
      host.counted('refreshes')
      this.failed(asGatewayError(err, host.log), ctx.requestId)
      return undefined
    }
    host.counted('refreshes')
    if (isNoQuote(reply.body)) {
      this.failed(host.noQuote(), ctx.requestId)
      return undefined
    }
    this.quoted(reply)
    return undefined
  }

  private quoted(reply: UpstreamReply<Quote>): void {
    const now = this.host.clock.now()
    const previous = this.state
    const same = previous?.kind === 'quote' && previous.raw.equals(reply.raw)
    const state: State = { kind: 'quote', raw: reply.raw, body: reply.body, at: now, frame: undefined }
    this.state = state
    // Unchanged: sent only when waiting one more refresh would pass the longest silence.
    if (same && now - this.lastSentAt + this.host.refreshMs <= this.host.maxSilenceMs) return
    this.broadcast(this.quoteFrame(state), now)
  }

  private failed(error: GatewayError, requestId: string): void {
    const previous = this.state
    this.state = { kind: 'problem', error, frame: this.host.problemFrame(error, requestId) }
    if (previous?.kind === 'problem' && previous.error.code === error.code) return
    this.host.log.info({ code: error.code }, 'live quote refresh failed; its watchers are told')
    this.broadcast(this.state.frame, this.host.clock.now())
  }

  private broadcast(frame: Buffer, now: number): void {
    this.lastSentAt = now
    for (const client of this.clients) this.host.deliver(client, frame)
  }

  private quoteFrame(state: Extract<State, { kind: 'quote' }>): Buffer {
    state.frame ??= eventFrame({
      event: QUOTE_EVENT,
      data: JSON.stringify({ ...state.body, quotedAt: new Date(state.at).toISOString() }),
    })
    return state.frame
  }

  /** The next refresh, one interval after the start of the last, never two at once. */
  private schedule(): void {
    if (this.closed || this.timer) return
    const delay = Math.max(0, this.lastStart + this.host.refreshMs - this.host.clock.now())
    this.timer = this.host.clock.setTimeout(() => this.tick(), delay)
  }

  private tick(): void {
    this.timer = undefined
    if (this.closed) return
    const now = this.host.clock.now()
    for (const client of [...this.clients]) {
      if (client.res && client.endsAt <= now) this.host.expire(client)
    }
    if (!this.closed) void this.refresh(undefined)
  }
}

function asGatewayError(err: unknown, log: FastifyBaseLogger): GatewayError {
  if (err instanceof GatewayError) return err
  log.error({ err }, 'live quote refresh failed unexpectedly')
  return problems.liveQuoteFailed(err)
}
