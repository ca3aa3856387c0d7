// The one client of the upstream: a keep-alive pool, the tenant key and our own headers (never the
// client's), one deadline per client request across retries, retries with backoff for idempotent
// calls only, a circuit breaker, the tenant key's quota (a call budget per second and the pause after a
// 429), and classification of every answer into our codes.
import type { FastifyBaseLogger } from 'fastify'
import { Pool } from 'undici'
import type { z } from 'zod'
import type { Clock } from '../clock.js'
import type { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { CallTrace, RequestTrace, Tracing } from '../tracing/trace-context.js'
import { backoffDelay } from './backoff.js'
import { type BreakerState, CircuitBreaker } from './breaker.js'
import type { CallBudget } from './call-budget.js'
import {
  badResponse,
  type Classified,
  classifyAnswer,
  classifyTransportError,
  type Operation,
} from './classify.js'
import type { CoolDown } from './cool-down.js'
import type { TenantKeyWatch } from './tenant-key.js'
import { requestWhole, type WholeResponse } from './whole-response.js'

export interface UpstreamTuning {
  /** Extra attempts for idempotent calls after an unclassified failure. */
  retries: number
  /** A retry starts only if at least this much of the deadline is left once its backoff has passed. */
  minAttemptMs: number
  backoffBaseMs: number
  backoffCapMs: number
  breakerThreshold: number
  breakerOpenMs: number
  connections: number
  maxBodyBytes: number
  /** How often an instance reads the shared cool-down from Redis. */
  coolDownPollMs: number
}

export const DEFAULT_TUNING: UpstreamTuning = {
  retries: 2,
  minAttemptMs: 250,
  backoffBaseMs: 100,
  backoffCapMs: 1_000,
  breakerThreshold: 5,
  breakerOpenMs: 5_000,
  connections: 128,
  maxBodyBytes: 16 * 1024 * 1024,
  coolDownPollMs: 250,
}

/** What one client request brings to its upstream calls: identity for logs, and its deadline. */
export interface CallContext {
  requestId: string
  log: FastifyBaseLogger
  /** Epoch ms after which no upstream work is started for this request. */
  deadline: number
  /** Upstream time spent by this request, for its log line. */
  timing?: { ms: number }
  /** The request's trace; calls made for no request (reloads, subscriptions) start their own. */
  trace?: RequestTrace
}

export interface UpstreamCall<T> {
  operation: Operation
  method?: 'GET' | 'POST'
  /** Path below the upstream base URL, built from validated values only. */
  path: string
  /** An encoded query string, without the `?`. */
  query?: string
  body?: unknown
  tenantKey?: boolean
  accessToken?: string
  cookie?: string
  /** The documented shape of a 2xx body; anything else is UPSTREAM_BAD_RESPONSE. */
  schema: z.ZodType<T>
  /** Extra attempts after an unclassified failure of an idempotent call; default the tuning's. */
  retries?: number
}

export interface UpstreamReply<T> {
  status: number
  body: T
  /** The upstream's bytes, passed through to clients untouched. */
  raw: Buffer
  headers: Record<string, string | string[] | undefined>
}

export interface CallObservation {
  operation: Operation
  /** 'ok' or the error code. */
  outcome: string
  status: number | undefined
  ms: number
}

/** Why a call was not sent: counted apart from attempts, which are calls that went out. */
export type RefusalReason = 'breaker' | 'cool_down' | 'budget' | 'deadline'

/** A call the gates kept from going out: why, and the problem answered instead. */
interface Refusal {
  reason: RefusalReason
  error: GatewayError
}

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

/** The tenant key's quota as metrics show it. */
export interface QuotaStats {
  budgetRefused: number
  budgetUnshared: number
  coolDownMs: number
  coolDowns: number
  coolDownRefused: number
}

/** More than one tick of undici's half-second timer clock. */
const UNDICI_TIMER_SLACK_MS = 1_000

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g

export class UpstreamClient {
  readonly origin: string
  readonly basePath: string
  readonly breaker: CircuitBreaker
  readonly coolDown: CoolDown
  /** Epoch ms of the last answer the upstream gave (any status): readiness looks at it. */
  lastAnswerAt = 0
  private readonly pool: Pool
  private readonly streams: Pool

  constructor(private readonly options: UpstreamClientOptions) {
    const url = new URL(options.baseUrl)
    this.origin = url.origin
    this.basePath = url.pathname.replace(/\/+$/, '')
    this.pool = new Pool(this.origin, {
      connections: options.tuning.connections,
      keepAliveTimeout: 10_000,
      // undici refuses a larger body itself (UND_ERR_RES_EXCEEDED_MAX_SIZE), so bodies are read whole.
      maxResponseSize: options.tuning.maxBodyBytes,
      pipelining: 1,
    })
    // Streams hold a connection each for minutes; they get their own pool so calls never queue behind them.
    this.streams = new Pool(this.origin, { keepAliveTimeout: 1_000, bodyTimeout: 0 })
    this.breaker = new CircuitBreaker(
      { threshold: options.tuning.breakerThreshold, openMs: options.tuning.breakerOpenMs },
      options.clock,
      options.onBreakerChange,
    )
    this.coolDown = options.coolDown
  }

  quotaStats(): QuotaStats {
    const { budget } = this.options
    return {
      budgetRefused: budget?.refused ?? 0,
      budgetUnshared: budget?.unshared ?? 0,
      coolDownMs: this.coolDown.remainingMs(),
      coolDowns: this.coolDown.started,
      coolDownRefused: this.coolDown.refused,
    }
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
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }

  private async attempt<T>(
    ctx: CallContext,
    call: UpstreamCall<T>,
    traceOf: () => CallTrace,
  ): Promise<UpstreamReply<T> | Classified> {
    const started = performance.now()
    // The gates in order: the pause after a 429 and the breaker, the call budget, the deadline. Only
    // the budget may need Redis: without one, nothing here is awaited.
    const { budget } = this.options
    const admitted = this.paused() ?? this.admit(ctx, budget && (await budget.spend()))
    if (typeof admitted !== 'number') return this.refuse(call.operation, admitted)
    const { status, result } = await this.send(ctx, call, traceOf().traceparent, admitted)
    // Only real upstream trouble counts against the breaker (every transport failure is such).
    if ('error' in result && result.unclassified) this.breaker.failure()
    else this.breaker.success()
    // Only for an attempt that was sent: refusals are counted apart.
    const ms = performance.now() - started
    const outcome = 'error' in result ? result.error.code : 'ok'
    if (ctx.timing) ctx.timing.ms += ms
    traceOf().attempted(status, outcome)
    this.options.observe?.({ operation: call.operation, outcome, status, ms })
    return result
  }

  /** The time the call has left, or why it may not go out (over the budget, past the deadline). */
  private admit(ctx: CallContext, overBudget: GatewayError | undefined): number | Refusal {
    const remaining = ctx.deadline - this.options.clock.now()
    if (!overBudget && remaining > 0) return remaining
    // No call, so no verdict; but this may have been the breaker's half-open probe.
    this.breaker.settle()
    return overBudget
      ? { reason: 'budget', error: overBudget }
      : { reason: 'deadline', error: problems.upstreamTimeout() }
  }

  /** The gates every call and stream passes: the pause after an upstream 429, then the breaker. */
  private paused(): Refusal | undefined {
    const cooling = this.coolDown.refusal()
    if (cooling) return { reason: 'cool_down', error: cooling }
    if (!this.breaker.allow()) return { reason: 'breaker', error: problems.breakerOpen() }
    return undefined
  }

  private refuse(operation: Operation, refusal: Refusal): Classified {
    this.options.refused?.(operation, refusal.reason)
    return { error: refusal.error, unclassified: false }
  }

  /** Sends one attempt and reads its answer whole; a failure on the way is classified as the transport's. */
  private async send<T>(
    ctx: CallContext,
    call: UpstreamCall<T>,
    traceparent: string,
    remaining: number,
  ): Promise<{ status: number | undefined; result: UpstreamReply<T> | Classified }> {
    // Known as soon as the answer's head arrives, so a body that then fails is logged with it.
    let headStatus: number | undefined
    let res: WholeResponse
    try {
      res = await requestWhole(
        this.pool,
        {
          method: call.method ?? 'GET',
          path: this.pathOf(call),
          headers: this.headersOf(ctx, call, traceparent),
          body: call.body === undefined ? null : JSON.stringify(call.body),
          // A backstop only, set past the deadline: the attempt's own timer (whole-response.ts) keeps
          // it. undici's timers tick every half second and may fire up to that much early, which
          // would cut an attempt with time left and start a retry the deadline cannot hold.
          headersTimeout: remaining + UNDICI_TIMER_SLACK_MS,
          bodyTimeout: remaining + UNDICI_TIMER_SLACK_MS,
        },
        (status) => {
          headStatus = status
        },
        remaining,
      )
    } catch (err) {
      const result = classifyTransportError(call.operation, err, this.options.clock.now() >= ctx.deadline)
      ctx.log.warn(
        { upstream: { operation: call.operation, status: headStatus, error: String(err) } },
        'upstream call failed',
      )
      return { status: headStatus, result }
    }
    this.lastAnswerAt = this.options.clock.now()
    return { status: res.status, result: this.classify(ctx, call, res) }
  }

  /** The answer as the reply, or as our problem; what it says of the tenant key and the quota is noted. */
  private classify<T>(
    ctx: CallContext,
    call: UpstreamCall<T>,
    res: WholeResponse,
  ): UpstreamReply<T> | Classified {
    const { status, headers, body: raw } = res
    const json = parseJson(raw)
    if (status >= 200 && status < 300) {
      const parsed = call.schema.safeParse(json)
      if (parsed.success) {
        // With a user's token as well, the upstream may have let the call through on that one.
        if (call.tenantKey && !call.accessToken) this.options.tenantKeyWatch.accepted()
        return { status, body: parsed.data, raw, headers }
      }
      const bad = badResponse(call.operation)
      this.logAnswer(ctx, call.operation, status, raw, bad)
      return bad
    }
    const retryAfter = headers['retry-after']
    const outcome = classifyAnswer(
      call.operation,
      status,
      json,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      this.options.clock.now(),
    )
    this.logAnswer(ctx, call.operation, status, raw, outcome)
    if (call.tenantKey && outcome.error.code === 'UPSTREAM_AUTH_FAILED') this.options.tenantKeyWatch.refused()
    if (status === 429) this.coolDown.start(Number(outcome.error.members.retryAfter))
    return outcome
  }

  /** Opens the upstream status stream. The caller owns the body and must destroy it. */
  async openStream(ctx: CallContext, path: string, signal: AbortSignal) {
    const paused = this.paused()
    if (paused) throw this.refuse('stream', paused).error
    // The span covers the opening, up to the answer's head; the stream itself may last minutes.
    const trace = this.options.tracing.call(ctx.trace, 'stream', 'GET')
    try {
      const res = await this.streams.request({
        method: 'GET',
        path: this.basePath + path,
        headers: {
          ...this.headersOf(ctx, { operation: 'stream' }, trace.traceparent),
          accept: 'text/event-stream',
        },
        headersTimeout: Math.max(1, ctx.deadline - this.options.clock.now()),
        signal,
      })
      this.lastAnswerAt = this.options.clock.now()
      trace.attempted(res.statusCode, 'ok')
      return res
    } catch (err) {
      const timedOut = this.options.clock.now() >= ctx.deadline
      trace.attempted(undefined, classifyTransportError('stream', err, timedOut).error.code)
      throw err
    } finally {
      // No verdict for the breaker, but this may have been its half-open probe: free the slot.
      this.breaker.settle()
      trace.end()
    }
  }

  async close(): Promise<void> {
    this.coolDown.close()
    await Promise.all([this.pool.close(), this.streams.destroy()])
  }

  private pathOf(call: { path: string; query?: string }): string {
    return `${this.basePath}${call.path}${call.query ? `?${call.query}` : ''}`
  }

  private headersOf(
    ctx: CallContext,
    call: {
      operation: Operation
      tenantKey?: boolean
      accessToken?: string
      cookie?: string
      body?: unknown
    },
    traceparent: string,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      'x-request-id': ctx.requestId,
      traceparent,
    }
    if (call.body !== undefined) headers['content-type'] = 'application/json'
    if (call.tenantKey) headers['x-tenant-api-key'] = this.options.tenantKey
    if (call.accessToken) headers.authorization = `Bearer ${call.accessToken}`
    if (call.cookie) headers.cookie = call.cookie
    return headers
  }

  /** Upstream text goes to the log only, trimmed and with tokens and our key removed. */
  private logAnswer(
    ctx: CallContext,
    operation: Operation,
    status: number,
    raw: Buffer,
    outcome: Classified,
  ) {
    const body = raw
      .subarray(0, 2048)
      .toString('utf8')
      .replace(JWT, '[redacted]')
      .replaceAll(this.options.tenantKey, '[redacted]')
    const level =
      outcome.error.code === 'UPSTREAM_AUTH_FAILED' ? 'error' : outcome.unclassified ? 'warn' : 'info'
    ctx.log[level](
      { upstream: { operation, status, body, code: outcome.error.code } },
      'upstream answered with an error',
    )
  }
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return undefined
  }
}
