// The error-code catalogue (docs/api.md, "Errors", generated from it), the error type every layer throws, and the one renderer
// that turns it into an RFC 9457 problem document. Nothing else builds error bodies; each problem itself,
// its code and text, is made by its function in problems.ts.

interface CodeSpec {
  status: number
  /** Short text for the code, the same for every occurrence: the problem document's `title`. */
  title: string
  retryable: boolean
  /** When a caller meets it and what its members carry: the errors page, OpenAPI and docs/api.md show it. */
  meaning: string
}

export const ERROR_CODES = {
  VALIDATION_FAILED: {
    status: 400,
    title: 'The request is malformed',
    retryable: false,
    meaning:
      'A query, body or header is malformed (non-numeric id, missing field, wrong type, bad JSON, bad history page), or the URL or request line is. `errors` lists each bad field as `{path, message}`.',
  },
  INVALID_AMOUNT: {
    status: 400,
    title: 'The amount must be a positive number',
    retryable: false,
    meaning:
      "The quote's `amount` is missing, non-numeric, zero or negative, or create's `intendedAmount` is zero or negative (then `errors` names `body.intendedAmount`).",
  },
  UNKNOWN_TOKEN: {
    status: 400,
    title: 'The token is not in the catalog',
    retryable: false,
    meaning: 'A token id is not in the catalog. Members: `side` (`deposit` or `settle`) and `tokenId`.',
  },
  INVALID_ADDRESS: {
    status: 400,
    title: 'The receiving address is not valid for its chain',
    retryable: false,
    meaning: "The `receivingAddress` is not valid for the settle token's chain. Member: `network`.",
  },
  INVALID_ORDER_ID: {
    status: 400,
    title: 'The order id is not a UUID',
    retryable: false,
    meaning: 'The order uuid is not a UUID.',
  },
  INVALID_PUSH_SUBSCRIPTION: {
    status: 400,
    title: 'The push subscription is malformed or its endpoint is not allowed',
    retryable: false,
    meaning:
      'A push subscription that is malformed (each bad field in `errors`), or whose endpoint is not allowed: `https:` only, naming a host (not an IP address) that resolves to public addresses only.',
  },
  NONCE_MISSING: {
    status: 400,
    title: 'The sign-in message has no Nonce line',
    retryable: false,
    meaning: 'The sign-in message has no `Nonce:` line.',
  },
  AUTH_REQUIRED: {
    status: 401,
    title: 'Sign-in required',
    retryable: false,
    meaning: 'The route needs a session (the session cookie, or `Authorization: Bearer <sessionToken>`).',
  },
  SESSION_EXPIRED: {
    status: 401,
    title: 'The session has expired; sign in again',
    retryable: false,
    meaning:
      "The session's access token has lapsed, or refreshing it failed. Member `challenge`: a fresh `{nonce, message?}` so the wallet can sign again at once.",
  },
  SIGNATURE_INVALID: {
    status: 401,
    title: 'The wallet signature is not valid',
    retryable: false,
    meaning:
      'The wallet signature, or the signed message (domain, address, chain, validity), did not verify. When the message has expired, member `challenge`: a fresh one to sign.',
  },
  NONCE_INVALID: {
    status: 401,
    title: 'The nonce is unknown, used or expired',
    retryable: false,
    meaning:
      'The nonce is unknown, already used or expired. Member `challenge`: a fresh `{nonce, message?}` to sign at once.',
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    title: 'This origin may not call the gateway',
    retryable: false,
    meaning:
      "The request's `Origin` is not the gateway's public origin nor an allowed origin, or a cookie-authenticated state change came without an allowed `Origin`.",
  },
  NOT_FOUND: { status: 404, title: 'No such route', retryable: false, meaning: 'There is no such route.' },
  TOKEN_NOT_FOUND: {
    status: 404,
    title: 'No such token',
    retryable: false,
    meaning: 'No token in the catalog has this id.',
  },
  ORDER_NOT_FOUND: {
    status: 404,
    title: 'No such order',
    retryable: false,
    meaning: 'The uuid is well-formed but the swap service knows no such order.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    title: 'A request with this Idempotency-Key is still running',
    retryable: true,
    meaning: 'A create with the same `Idempotency-Key` is still running: repeat it shortly.',
  },
  TOO_MANY_SUBSCRIPTIONS: {
    status: 409,
    title: 'The order has as many push subscriptions as allowed',
    retryable: false,
    meaning:
      'The order already has `WEB_PUSH_MAX_PER_ORDER` push subscriptions: end one (`DELETE` with its endpoint) before adding another.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'The request body is too large',
    retryable: false,
    meaning:
      'The request body is over 64 KiB. A client still sending the body receives this answer before the connection closes.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'The request body must be JSON',
    retryable: false,
    meaning: 'The request body is not JSON (`Content-Type: application/json`).',
  },
  PAIR_UNAVAILABLE: {
    status: 422,
    title: 'This pair cannot be traded now',
    retryable: false,
    meaning:
      "A token is inactive, or the deposit token's chain has deposits disabled. Members: `depositTokenId`, `settleTokenId`.",
  },
  NO_QUOTE: {
    status: 422,
    title: 'No quote is available for this pair now',
    retryable: true,
    meaning: 'The swap service has no price for this pair and amount right now.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'This Idempotency-Key was used with a different request',
    retryable: false,
    meaning: 'This `Idempotency-Key` was already used with a different request body.',
  },
  RATE_LIMITED: {
    status: 429,
    title: 'Too many requests',
    retryable: true,
    meaning:
      'The caller went over a limit. The `Retry-After` header and member `retryAfter` say how many seconds to wait; member `group` names the rate-limit group.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    title: 'The request did not arrive in time',
    retryable: true,
    meaning:
      'The client did not send its request head within `HEADERS_TIMEOUT_MS`, or its whole request within `REQUEST_TIMEOUT_MS`. The connection is closed after this answer.',
  },
  URI_TOO_LONG: {
    status: 414,
    title: 'The request target is too long',
    retryable: false,
    meaning: 'The request target is over the limit: a path parameter, or the whole URL.',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    title: 'The request headers are too large',
    retryable: false,
    meaning: "The request's headers are over the limit. The connection is closed after this answer.",
  },
  INTERNAL: {
    status: 500,
    title: 'Internal gateway error',
    retryable: true,
    meaning: 'A fault in the gateway itself. It is logged with the request id; it should never happen.',
  },
  UPSTREAM_ERROR: {
    status: 502,
    title: 'The swap service failed',
    retryable: true,
    meaning:
      'The swap service failed (a generic 500, or an answer that is not one of its documented envelopes). Retryable for reads, not for create.',
  },
  UPSTREAM_BAD_RESPONSE: {
    status: 502,
    title: 'The swap service sent an unreadable answer',
    retryable: true,
    meaning: 'The swap service answered 2xx with a body that is not the documented JSON.',
  },
  UPSTREAM_AUTH_FAILED: {
    status: 502,
    title: 'The gateway is not authorised upstream',
    retryable: false,
    meaning:
      "The swap service rejected the gateway's tenant key: an operator problem, logged at error level.",
  },
  ORDER_OUTCOME_UNKNOWN: {
    status: 502,
    title: 'The order may or may not have been created',
    retryable: true,
    meaning:
      'A create was sent but no answer came back. An unfunded order may exist upstream (it expires unfunded; nothing is at risk until a deposit), so creating again is safe.',
  },
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    title: 'The swap service is unavailable',
    retryable: true,
    meaning:
      'The swap service could not be reached (refused, reset, circuit open), or it is rate-limiting the gateway (then `Retry-After` and `retryAfter` carry its wait).',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    title: 'The gateway is unavailable',
    retryable: true,
    meaning:
      'The gateway is shutting down, over its stream capacity, or not ready (`/readyz`). Retry, ideally against another instance.',
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    title: 'The swap service did not answer in time',
    retryable: true,
    meaning: "The swap service did not answer within the request's deadline.",
  },
} as const satisfies Record<string, CodeSpec>

export type ErrorCode = keyof typeof ERROR_CODES

export interface FieldError {
  path: string
  message: string
}

export interface GatewayErrorOptions {
  /** Members beyond the standard ones (`tokenId`, `side`, `network`, `challenge`, `retryAfter`...). */
  members?: Record<string, unknown>
  errors?: FieldError[]
  /** Overrides the code's default, e.g. UPSTREAM_ERROR on create is not retryable. */
  retryable?: boolean
  headers?: Record<string, string>
  cause?: unknown
}

export class GatewayError extends Error {
  override name = 'GatewayError'
  readonly status: number
  readonly retryable: boolean
  readonly members: Record<string, unknown>
  readonly errors: FieldError[] | undefined
  readonly headers: Record<string, string>

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    options: GatewayErrorOptions = {},
  ) {
    super(`${code}: ${detail}`, { cause: options.cause })
    this.status = ERROR_CODES[code].status
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable
    this.members = options.members ?? {}
    this.errors = options.errors
    this.headers = options.headers ?? {}
  }

  /** The same problem as a new error, members added: the original may be shared by other requests. */
  copy(extra: Pick<GatewayErrorOptions, 'members' | 'cause'> = {}): GatewayError {
    return new GatewayError(this.code, this.detail, {
      members: { ...this.members, ...extra.members },
      errors: this.errors,
      retryable: this.retryable,
      headers: this.headers,
      cause: extra.cause ?? this.cause,
    })
  }
}

/** A setting that cannot work, named in the message: the process stops at start-up. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

/** The anchor of a code on the errors page: UNKNOWN_TOKEN → unknown-token. */
export const codeSlug = (code: ErrorCode): string => code.toLowerCase().replaceAll('_', '-')

/**
 * Where the codes are documented, absolute on PUBLIC_ORIGIN: a problem's `type` is this and the code's
 * anchor, so it resolves from a page on any origin (a frontend on another origin or a dev server).
 */
export const errorTypeBase = (publicOrigin: string, apiPrefix: string): string =>
  `${publicOrigin}${apiPrefix}/docs/errors`

export function problemDocument(err: GatewayError, requestId: string, typeBase: string) {
  return {
    ...err.members,
    type: `${typeBase}#${codeSlug(err.code)}`,
    title: ERROR_CODES[err.code].title,
    status: err.status,
    code: err.code,
    detail: err.detail,
    retryable: err.retryable,
    requestId,
    ...(err.errors ? { errors: err.errors } : {}),
  }
}

/** The problem document as the bytes of a response body. */
export const renderProblem = (err: GatewayError, requestId: string, typeBase: string): string =>
  JSON.stringify(problemDocument(err, requestId, typeBase))
