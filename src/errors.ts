// The error-code catalogue (docs/api.md, "Errors"), the error type every layer throws, and the one renderer
// that turns it into an RFC 9457 problem document. Nothing else builds error bodies; each problem itself,
// its code and text, is made by its function in problems.ts.

interface CodeSpec {
  status: number
  title: string
  retryable: boolean
}

export const ERROR_CODES = {
  VALIDATION_FAILED: { status: 400, title: 'The request is malformed', retryable: false },
  INVALID_AMOUNT: { status: 400, title: 'The amount must be a positive number', retryable: false },
  UNKNOWN_TOKEN: { status: 400, title: 'The token is not in the catalog', retryable: false },
  INVALID_ADDRESS: {
    status: 400,
    title: 'The receiving address is not valid for its chain',
    retryable: false,
  },
  INVALID_ORDER_ID: { status: 400, title: 'The order id is not a UUID', retryable: false },
  INVALID_PUSH_SUBSCRIPTION: {
    status: 400,
    title: 'The push subscription is malformed or its endpoint is not allowed',
    retryable: false,
  },
  NONCE_MISSING: { status: 400, title: 'The sign-in message has no Nonce line', retryable: false },
  AUTH_REQUIRED: { status: 401, title: 'Sign-in required', retryable: false },
  SESSION_EXPIRED: { status: 401, title: 'The session has expired; sign in again', retryable: false },
  SIGNATURE_INVALID: { status: 401, title: 'The wallet signature is not valid', retryable: false },
  NONCE_INVALID: { status: 401, title: 'The nonce is unknown, used or expired', retryable: false },
  ORIGIN_NOT_ALLOWED: { status: 403, title: 'This origin may not call the gateway', retryable: false },
  NOT_FOUND: { status: 404, title: 'No such route', retryable: false },
  TOKEN_NOT_FOUND: { status: 404, title: 'No such token', retryable: false },
  ORDER_NOT_FOUND: { status: 404, title: 'No such order', retryable: false },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    title: 'A request with this Idempotency-Key is still running',
    retryable: true,
  },
  TOO_MANY_SUBSCRIPTIONS: {
    status: 409,
    title: 'The order has as many push subscriptions as allowed',
    retryable: false,
  },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large', retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'The request body must be JSON', retryable: false },
  PAIR_UNAVAILABLE: { status: 422, title: 'This pair cannot be traded now', retryable: false },
  NO_QUOTE: { status: 422, title: 'No quote is available for this pair now', retryable: true },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'This Idempotency-Key was used with a different request',
    retryable: false,
  },
  RATE_LIMITED: { status: 429, title: 'Too many requests', retryable: true },
  REQUEST_TIMEOUT: { status: 408, title: 'The request did not arrive in time', retryable: true },
  URI_TOO_LONG: { status: 414, title: 'The request target is too long', retryable: false },
  HEADERS_TOO_LARGE: { status: 431, title: 'The request headers are too large', retryable: false },
  INTERNAL: { status: 500, title: 'Internal gateway error', retryable: true },
  UPSTREAM_ERROR: { status: 502, title: 'The swap service failed', retryable: true },
  UPSTREAM_BAD_RESPONSE: {
    status: 502,
    title: 'The swap service sent an unreadable answer',
    retryable: true,
  },
  UPSTREAM_AUTH_FAILED: { status: 502, title: 'The gateway is not authorised upstream', retryable: false },
  ORDER_OUTCOME_UNKNOWN: {
    status: 502,
    title: 'The order may or may not have been created',
    retryable: true,
  },
  UPSTREAM_UNAVAILABLE: { status: 503, title: 'The swap service is unavailable', retryable: true },
  SERVICE_UNAVAILABLE: { status: 503, title: 'The gateway is unavailable', retryable: true },
  UPSTREAM_TIMEOUT: { status: 504, title: 'The swap service did not answer in time', retryable: true },
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
