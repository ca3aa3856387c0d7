// Sending one attempt over the keep-alive pool: the upstream path, the tenant key and our own headers
// (never the client's), and the answer read whole within the time left. A failure on the way is
// classified as the transport's.
import type { Pool } from 'undici'
import type { Clock } from '../clock.js'
import type { CallContext, UpstreamCall } from './call.js'
import { type Classified, classifyTransportError, type Operation } from './classify.js'
import { requestWhole, type WholeResponse } from './whole-response.js'

/** More than one tick of undici's half-second timer clock. */
const UNDICI_TIMER_SLACK_MS = 1_000

/** What a request to the upstream carries besides the call's own values. */
export interface Sender {
  basePath: string
  userAgent: string
  tenantKey: string
  clock: Clock
}

/** What an attempt came back with: the answer read whole, or the transport's failure. */
export type Sent =
  { status: number; answer: WholeResponse } | { status: number | undefined; failure: Classified }

/** The headers of an upstream request: ours only, the tenant key and the user's token when asked. */
export function upstreamHeaders(
  sender: Sender,
  ctx: CallContext,
  call: { operation: Operation; tenantKey?: boolean; accessToken?: string; cookie?: string; body?: unknown },
  traceparent: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': sender.userAgent,
    'x-request-id': ctx.requestId,
    traceparent,
  }
  if (call.body !== undefined) headers['content-type'] = 'application/json'
  if (call.tenantKey) headers['x-tenant-api-key'] = sender.tenantKey
  if (call.accessToken) headers.authorization = `Bearer ${call.accessToken}`
  if (call.cookie) headers.cookie = call.cookie
  return headers
}

/** Sends one attempt and reads its answer whole. */
export async function sendAttempt<T>(
  pool: Pool,
  sender: Sender,
  ctx: CallContext,
  call: UpstreamCall<T>,
  traceparent: string,
  remaining: number,
): Promise<Sent> {
  // Known as soon as the answer's head arrives, so a body that then fails is logged with it.
  let headStatus: number | undefined
  try {
    const answer = await requestWhole(
      pool,
      {
        method: call.method ?? 'GET',
        path: `${sender.basePath}${call.path}${call.query ? `?${call.query}` : ''}`,
        headers: upstreamHeaders(sender, ctx, call, traceparent),
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
    return { status: answer.status, answer }
  } catch (err) {
    const failure = classifyTransportError(call.operation, err, sender.clock.now() >= ctx.deadline)
    ctx.log.warn(
      { upstream: { operation: call.operation, status: headStatus, error: String(err) } },
      'upstream call failed',
    )
    return { status: headStatus, failure }
  }
}
