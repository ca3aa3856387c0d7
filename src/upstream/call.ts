// The shapes of one upstream call: what a client request brings to it, what the caller asks, what
// comes back, and what is observed of it.
import type { FastifyBaseLogger } from 'fastify'
import type { z } from 'zod'
import type { RequestTrace } from '../tracing/trace-context.js'
import type { CheckedBodies } from './checked-bodies.js'
import type { Operation } from './classify.js'

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
  /** Bodies this path answered before, already checked: the same bytes are not parsed and checked again. */
  checked?: CheckedBodies<T>
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
