// The one client of the upstream: each call passes the gates (gates.ts), is sent over a keep-alive pool
// (send.ts), its answer interpreted (answer.ts), and retried here with backoff when it is idempotent
// and failed for a reason worth retrying, within the one deadline of its client request. Status
// streams have a pool of their own (stream-pool.ts).
import { Pool } from 'undici'
import { type Clock, pause } from '../clock.js'
import type { CallTrace, Tracing } from '../tracing/trace-context.js'
import { interpretAnswer } from './answer.js'
import { backoffDelay } from './backoff.js'
import { type BreakerState, CircuitBreaker } from './breaker.js'
import type { CallBudget } from './call-budget.js'
import type { CallContext, CallObservation, UpstreamCall, UpstreamReply } from './call.js'
import type { Classified, Operation } from './classify.js'
import type { CoolDown } from './cool-down.js'
import { CallGates, type QuotaStats, type RefusalReason } from './gates.js'
import { sendAttempt, type Sender } from './send.js'
import { StreamPool } from './stream-pool.js'
import type { TenantKeyWatch } from './tenant-key.js'
import type { UpstreamTuning } from './tuning.js'

// What the capabilities import with the client, named where they are defined.
export type { CallContext, UpstreamReply } from './call.js'
export type { UpstreamTuning } from './tuning.js'

export interface UpstreamClientOptions {
  baseUrl: string
  tenantKey: string
  userAgent: string
  tuning: UpstreamTuning
  clock: Clock
  random: () => number
  /** Gives every call its `traceparent` (and its span, when spans are exported). */
  tracing: Tracing
  observe?: (o: CallObservation) => void
  /** A call the breaker, the cool-down, the budget or the spent deadline kept from going out. */
  refused?: (operation: Operation, reason: RefusalReason) => void
  /** Told whether the upstream accepts the tenant key, from every call that carries it. */
  tenantKeyWatch: TenantKeyWatch
  onBreakerChange?: (state: BreakerState) => void
  /** UPSTREAM_MAX_RPS; undefined: calls are not counted. */
  budget?: CallBudget
  /** The pause after a 429, shared by the instances through Redis when there is one. */
  coolDown: CoolDown
}

export class UpstreamClient {
  readonly breaker: CircuitBreaker
  readonly coolDown: CoolDown
  /** Epoch ms of the last answer the upstream gave (any status): readiness looks at it. */
  lastAnswerAt = 0
  private readonly pool: Pool
  private readonly sender: Sender
  private readonly gates: CallGates
  private readonly streams: StreamPool

  constructor(private readonly options: UpstreamClientOptions) {
    const url = new URL(options.baseUrl)
    const { tuning, clock } = options
    this.pool = new Pool(url.origin, {
      connections: tuning.connections,
      keepAliveTimeout: 10_000,
      // undici refuses a larger body itself (UND_ERR_RES_EXCEEDED_MAX_SIZE), so bodies are read whole.
      maxResponseSize: tuning.maxBodyBytes,
      pipelining: 1,
    })
    this.sender = {
      basePath: url.pathname.replace(/\/+$/, ''),
      userAgent: options.userAgent,
      tenantKey: options.tenantKey,
      clock,
    }
    this.breaker = new CircuitBreaker(
      { threshold: tuning.breakerThreshold, openMs: tuning.breakerOpenMs },
      clock,
      options.onBreakerChange,
    )
    this.coolDown = options.coolDown
    this.gates = new CallGates({
      clock,
      breaker: this.breaker,
      coolDown: this.coolDown,
      budget: options.budget,
      refused: options.refused,
    })
    this.streams = new StreamPool({
      origin: url.origin,
      sender: this.sender,
      tracing: options.tracing,
      gates: this.gates,
      breaker: this.breaker,
      answered: () => {
        this.lastAnswerAt = clock.now()
      },
      maxOpening: tuning.maxOpeningStreams,
    })
  }

  quotaStats(): QuotaStats {
    return this.gates.quotaStats()
  }

  async call<T>(ctx: CallContext, call: UpstreamCall<T>): Promise<UpstreamReply<T>> {
    const method = call.method ?? 'GET'
    const idempotent = method === 'GET'
    const { tuning } = this.options
    // One span (when spans are exported) and one traceparent for all the call's attempts, made when
    // the first attempt goes out: a call refused before sending anything has no span.
    let trace: CallTrace | undefined
    const traceOf = () => (trace ??= this.options.tracing.call(ctx.trace, call.operation, method))
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await this.attempt(ctx, call, traceOf)
      if (!('error' in outcome)) {
        trace?.end()
        return outcome
      }
      const { error, unclassified } = outcome
      const delay = backoffDelay(attempt, tuning.backoffBaseMs, tuning.backoffCapMs, this.options.random)
      // A retry the time left cannot hold would only answer later than the deadline allows.
      const retry =
        idempotent &&
        unclassified &&
        attempt < (call.retries ?? tuning.retries) &&
        ctx.deadline - (this.options.clock.now() + delay) >= tuning.minAttemptMs
      if (!retry) {
        trace?.end()
        throw error
      }
      ctx.log.debug({ operation: call.operation, attempt: attempt + 1, delay }, 'retrying upstream call')
      await pause(this.options.clock, delay)
    }
  }

  private async attempt<T>(
    ctx: CallContext,
    call: UpstreamCall<T>,
    traceOf: () => CallTrace,
  ): Promise<UpstreamReply<T> | Classified> {
    const started = performance.now()
    const admitted = await this.gates.pass(ctx, call.operation)
    if (typeof admitted !== 'number') return admitted
    const sent = await sendAttempt(this.pool, this.sender, ctx, call, traceOf().traceparent, admitted)
    let result: UpstreamReply<T> | Classified
    if ('failure' in sent) result = sent.failure
    else {
      this.lastAnswerAt = this.options.clock.now()
      result = interpretAnswer(ctx, call, sent.answer, this.options)
    }
    // Only real upstream trouble counts against the breaker (every transport failure is such).
    if ('error' in result && result.unclassified) this.breaker.failure()
    else this.breaker.success()
    // Only for an attempt that was sent: refusals are counted apart.
    const ms = performance.now() - started
    const outcome = 'error' in result ? result.error.code : 'ok'
    if (ctx.timing) ctx.timing.ms += ms
    traceOf().attempted(sent.status, outcome)
    this.options.observe?.({ operation: call.operation, outcome, status: sent.status, ms })
    return result
  }

  /** Opens the upstream status stream (stream-pool.ts). The caller owns the body and must destroy it. */
  openStream(context: () => CallContext, path: string, signal: AbortSignal, urgent: boolean) {
    return this.streams.open(context, path, signal, urgent)
  }

  async close(): Promise<void> {
    this.coolDown.close()
    await Promise.all([this.pool.close(), this.streams.close()])
  }
}
