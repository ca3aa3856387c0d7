// The one client of the upstream: a keep-alive pool, the tenant key and our own headers (never the
// client's), one deadline per client request across retries, retries with backoff for idempotent
// calls only, a circuit breaker, and classification of every answer into our codes.
import type { FastifyBaseLogger } from 'fastify'
import { Pool } from 'undici'
import type { z } from 'zod'
import type { Clock } from '../clock.js'
import { GatewayError } from '../errors.js'
import { backoffDelay } from './backoff.js'
import { type BreakerState, CircuitBreaker } from './breaker.js'
import {
  badResponse,
  type Classified,
  classifyAnswer,
  classifyTransportError,
  type Operation,
} from './classify.js'
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
}

/** What one client request brings to its upstream calls: identity for logs, and its deadline. */
export interface CallContext {
  requestId: string
  log: FastifyBaseLogger
  /** Epoch ms after which no upstream work is started for this request. */
  deadline: number
  /** Upstream time spent by this request, for its log line. */
  timing?: { ms: number }
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

export interface UpstreamClientOptions {
  baseUrl: string
  tenantKey: string
  userAgent: string
  tuning: UpstreamTuning
  clock: Clock
  random?: () => number
  observe?: (o: CallObservation) => void
  onBreakerChange?: (state: BreakerState) => void
}

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g

const TIMER_STEP_MS = 50

/**
 * The remaining time as an attempt's timeout: above a second, rounded down to a 50 ms step. undici
 * reuses a connection's timer only while the timeout value repeats; each new value made a new timer
 * that stayed referenced until undici's next sweep, half a second later, so every call left garbage
 * for the old generation. undici's timers run on a clock ticking every half second, so they are only
 * a backstop: the attempt's own timer (whole-response.ts), at the same rounded-down value, keeps the
 * deadline, and Node reuses its timer lists while values repeat too.
 */
function timeoutOf(remaining: number): number {
  return remaining > 1_000 ? remaining - 1 - ((remaining - 1) % TIMER_STEP_MS) : remaining
}

export class UpstreamClient {
  readonly origin: string
  readonly basePath: string
  readonly breaker: CircuitBreaker
  /** Epoch ms of the last answer the upstream gave (any status): readiness looks at it. */
  lastAnswerAt = 0
  private readonly pool: Pool
  private readonly streams: Pool
  private readonly random: () => number

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
    this.random = options.random ?? Math.random
  }

  async call<T>(ctx: CallContext, call: UpstreamCall<T>): Promise<UpstreamReply<T>> {
    const idempotent = (call.method ?? 'GET') === 'GET'
    const { tuning } = this.options
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await this.attempt(ctx, call)
      if (!('error' in outcome)) return outcome
      const { error, unclassified } = outcome
      const delay = backoffDelay(attempt, tuning.backoffBaseMs, tuning.backoffCapMs, this.random)
      // A retry the time left cannot hold would only answer later than the deadline allows.
      const retry =
        idempotent &&
        unclassified &&
        attempt < tuning.retries &&
        ctx.deadline - (this.options.clock.now() + delay) >= tuning.minAttemptMs
      if (!retry) throw error
      ctx.log.debug({ operation: call.operation, attempt: attempt + 1, delay }, 'retrying upstream call')
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }

  private async attempt<T>(ctx: CallContext, call: UpstreamCall<T>): Promise<UpstreamReply<T> | Classified> {
    const started = performance.now()
    const finish = (status: number | undefined, outcome: string) => {
      const ms = performance.now() - started
      if (ctx.timing) ctx.timing.ms += ms
      this.options.observe?.({ operation: call.operation, outcome, status, ms })
    }
    if (!this.breaker.allow()) {
      finish(undefined, 'UPSTREAM_UNAVAILABLE')
      return {
        error: new GatewayError(
          'UPSTREAM_UNAVAILABLE',
          'The swap service is failing; calls are paused briefly.',
        ),
        unclassified: false,
      }
    }
    const remaining = ctx.deadline - this.options.clock.now()
    if (remaining <= 0) {
      this.breaker.settle()
      finish(undefined, 'UPSTREAM_TIMEOUT')
      return {
        error: new GatewayError('UPSTREAM_TIMEOUT', 'The swap service did not answer in time.'),
        unclassified: false,
      }
    }

    const timeout = timeoutOf(remaining)
    // Known as soon as the answer's head arrives, so a body that then fails is logged with it.
    let headStatus: number | undefined
    let res: WholeResponse
    try {
      res = await requestWhole(
        this.pool,
        {
          method: call.method ?? 'GET',
          path: this.pathOf(call),
          headers: this.headersOf(ctx, call),
          body: call.body === undefined ? null : JSON.stringify(call.body),
          // A backstop only (see timeoutOf); an AbortSignal per call costs more than a timer.
          headersTimeout: timeout,
          bodyTimeout: timeout,
        },
        (status) => {
          headStatus = status
        },
        timeout,
      )
    } catch (err) {
      const classified = classifyTransportError(call.operation, err, this.options.clock.now() >= ctx.deadline)
      ctx.log.warn(
        { upstream: { operation: call.operation, status: headStatus, error: String(err) } },
        'upstream call failed',
      )
      this.breaker.failure()
      finish(headStatus, classified.error.code)
      return classified
    }
    this.lastAnswerAt = this.options.clock.now()
    const { status, headers, body: raw } = res

    const json = parseJson(raw)
    if (status >= 200 && status < 300) {
      const parsed = call.schema.safeParse(json)
      if (parsed.success) {
        this.breaker.success()
        finish(status, 'ok')
        return { status, body: parsed.data, raw, headers }
      }
      const bad = badResponse(call.operation)
      this.logAnswer(ctx, call.operation, status, raw, bad)
      this.breaker.failure()
      finish(status, bad.error.code)
      return bad
    }
    const retryAfter = headers['retry-after']
    const outcome = classifyAnswer(
      call.operation,
      status,
      json,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    )
    this.logAnswer(ctx, call.operation, status, raw, outcome)
    if (outcome.unclassified) this.breaker.failure()
    else this.breaker.success()
    finish(status, outcome.error.code)
    return outcome
  }

  /** Opens the upstream status stream. The caller owns the body and must destroy it. */
  async openStream(ctx: CallContext, path: string, signal: AbortSignal) {
    if (!this.breaker.allow()) {
      throw new GatewayError('UPSTREAM_UNAVAILABLE', 'The swap service is failing; calls are paused briefly.')
    }
    try {
      const res = await this.streams.request({
        method: 'GET',
        path: this.basePath + path,
        headers: { ...this.headersOf(ctx, { operation: 'stream' }), accept: 'text/event-stream' },
        headersTimeout: timeoutOf(Math.max(1, ctx.deadline - this.options.clock.now())),
        signal,
      })
      this.lastAnswerAt = this.options.clock.now()
      return res
    } finally {
      // No verdict for the breaker, but this may have been its half-open probe: free the slot.
      this.breaker.settle()
    }
  }

  async close(): Promise<void> {
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
  ): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      'x-request-id': ctx.requestId,
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
