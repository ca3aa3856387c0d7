// Turns what the upstream answered (or failed to answer) into one of our codes. The upstream answers
// business errors as 500s, so we branch on statusCode and message (the upstream spec's tables), never
// on `error` or casing. `unclassified` marks real upstream trouble: only that is retried and counted by
// the circuit breaker, so a user's typo never looks like an outage.
import type { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import { type Envelope, envelopeSchema } from './schemas.js'

export type Operation =
  | 'catalog'
  | 'swapLimits'
  | 'quote'
  | 'create'
  | 'orderRead'
  | 'history'
  | 'stream'
  | 'challenge'
  | 'verify'
  | 'refresh'
  | 'me'

export interface Classified {
  error: GatewayError
  /** A generic 500, an undocumented answer, a reset, a refusal, a timeout: worth a retry and a breaker tick. */
  unclassified: boolean
}

const classified = (error: GatewayError): Classified => ({ error, unclassified: false })
const unclassified = (error: GatewayError): Classified => ({ error, unclassified: true })

const businessRules: Array<[RegExp, (m: RegExpMatchArray) => GatewayError]> = [
  [/^invalid amount: /i, () => problems.amountNotPositive()],
  [
    /^invalid (deposit|settle) token id provided: (.*)$/i,
    (m) => problems.unknownToken((m[1] ?? '').toLowerCase(), numericOrRaw(m[2] ?? '')),
  ],
  [/^invalid (\S+) address: /i, (m) => problems.invalidAddress(m[1] ?? '')],
  [
    /^couldn't find trade path for (\S+) -> (\S+)$/i,
    (m) =>
      problems.noTradePath({
        depositTokenId: numericOrRaw(m[1] ?? ''),
        settleTokenId: numericOrRaw(m[2] ?? ''),
      }),
  ],
]

const unauthorizedRules: Array<[RegExp, () => GatewayError]> = [
  [/^evm signature verification failed/i, problems.signatureInvalid],
  [/^nonce not found in the message\.?$/i, problems.nonceMissing],
  [/^invalid or expired nonce\.?$/i, problems.nonceInvalid],
  [/refresh token/i, problems.renewalRefused],
  [/^access token not found/i, problems.sessionNotAccepted],
  [/^valid access token required\.?$|^x-tenant-api-key not present$/i, problems.tenantKeyRejected],
]

/** A failed create is not repeated blindly: the order may exist. */
const upstreamFailed = (operation: Operation) =>
  problems.upstreamFailed({ retryable: operation !== 'create' })

function numericOrRaw(text: string): number | string {
  return /^\d+$/.test(text) ? Number(text) : text
}

function messageOf(envelope: Envelope): string {
  return Array.isArray(envelope.message) ? envelope.message.join('; ') : envelope.message
}

/** The unknown-order answer of GET /v1/orders/{uuid}: exactly statusCode and message, no `error`. */
function isMissingOrder(body: unknown, envelope: Envelope): boolean {
  return (
    envelope.statusCode === 500 &&
    messageOf(envelope).toLowerCase() === 'internal server error' &&
    typeof body === 'object' &&
    body !== null &&
    Object.keys(body).length === 2 &&
    !('error' in body)
  )
}

/** How long calls pause after a 429 that names no Retry-After (docs/operations.md). */
const UNSTATED_RETRY_AFTER_S = 60

export function classifyAnswer(
  operation: Operation,
  status: number,
  body: unknown,
  retryAfter: string | undefined,
  /** Now, on the injected clock: a Retry-After date is counted from it. */
  now: number,
): Classified {
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter, now) ?? UNSTATED_RETRY_AFTER_S
    return classified(problems.upstreamRateLimiting(seconds))
  }
  const parsed = envelopeSchema.safeParse(body)
  if (!parsed.success || parsed.data.statusCode !== status) return unclassified(upstreamFailed(operation))
  const envelope = parsed.data
  const message = messageOf(envelope)

  if (status === 400) return classified(problems.upstreamRefusedAsMalformed())
  if (status === 401) {
    const rule = unauthorizedRules.find(([re]) => re.test(message))
    if (rule) return classified(rule[1]())
    return unclassified(upstreamFailed(operation))
  }
  if (status === 500) {
    if (operation === 'orderRead' && isMissingOrder(body, envelope)) {
      return classified(problems.orderNotFound())
    }
    for (const [re, make] of businessRules) {
      const m = message.match(re)
      if (m) return classified(make(m))
    }
  }
  return unclassified(upstreamFailed(operation))
}

/** A Retry-After header in seconds (a number of seconds or an HTTP date, counted from `now`). */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

/** A 2xx whose body is not the documented JSON. For create, the order may exist: say so. */
export function badResponse(operation: Operation): Classified {
  return unclassified(operation === 'create' ? problems.orderOutcomeUnknown() : problems.upstreamUnreadable())
}

const REFUSED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])
const TIMED_OUT = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ABORT_ERR',
  'ETIMEDOUT',
  'GATEWAY_CALL_TIME_LIMIT',
])

/** A transport failure: refused (never sent), or sent and then reset or timed out. */
export function classifyTransportError(
  operation: Operation,
  err: unknown,
  deadlinePassed: boolean,
): Classified {
  const codes = errorCodes(err)
  if (codes.includes('UND_ERR_RES_EXCEEDED_MAX_SIZE')) return badResponse(operation)
  if (codes.some((c) => REFUSED.has(c))) return unclassified(problems.upstreamUnreachable(err))
  if (operation === 'create') return unclassified(problems.orderOutcomeUnknown())
  if (deadlinePassed || codes.some((c) => TIMED_OUT.has(c)))
    return unclassified(problems.upstreamTimeout(err))
  return unclassified(problems.upstreamConnectionFailed(err))
}

/** The codes along an error's cause chain (undici wraps socket errors). */
function errorCodes(err: unknown): string[] {
  const codes: string[] = []
  for (let e = err; typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) {
    const { code, name } = e as { code?: unknown; name?: unknown }
    if (typeof code === 'string') codes.push(code)
    if (name === 'AbortError' || name === 'TimeoutError') codes.push('ABORT_ERR')
    if (codes.length > 8) break
  }
  return codes
}
