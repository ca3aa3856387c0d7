// What each error code means for a caller (docs/api.md, "Errors"), beside the status, title and retryability
// that src/errors.ts holds. Typed over every code, so a new code cannot ship undocumented.
import { codeSlug, ERROR_CODES, type ErrorCode } from '../errors.js'

const MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_FAILED:
    'A query, body or header is malformed (non-numeric id, missing field, wrong type, bad JSON, bad history page). `errors` lists each bad field as `{path, message}`.',
  INVALID_AMOUNT: 'The quote `amount` is missing, non-numeric, zero or negative.',
  UNKNOWN_TOKEN: 'A token id is not in the catalog. Members: `side` (`deposit` or `settle`) and `tokenId`.',
  INVALID_ADDRESS: "The `receivingAddress` is not valid for the settle token's chain. Member: `network`.",
  INVALID_ORDER_ID: 'The order uuid is not a UUID.',
  INVALID_PUSH_SUBSCRIPTION:
    'A push subscription that is malformed (each bad field in `errors`), or whose endpoint is not allowed: `https:` only, naming a host (not an IP address) that resolves to public addresses.',
  NONCE_MISSING: 'The sign-in message has no `Nonce:` line.',
  AUTH_REQUIRED: 'The route needs a session (the session cookie, or `Authorization: Bearer <sessionToken>`).',
  SESSION_EXPIRED:
    "The session's access token has lapsed, or refreshing it failed. Member `challenge`: a fresh `{nonce, message?}` so the wallet can sign again at once.",
  SIGNATURE_INVALID:
    'The wallet signature, or the signed message (domain, address, chain, validity), did not verify. When the message has expired, member `challenge`: a fresh one to sign.',
  NONCE_INVALID:
    'The nonce is unknown, already used or expired. Member `challenge`: a fresh `{nonce, message?}` to sign at once.',
  ORIGIN_NOT_ALLOWED:
    "The request's `Origin` is not the gateway's public origin nor an allowed origin, or a cookie-authenticated state change came without an allowed `Origin`.",
  NOT_FOUND: 'There is no such route.',
  TOKEN_NOT_FOUND: 'No token in the catalog has this id.',
  ORDER_NOT_FOUND: 'The uuid is well-formed but the swap service knows no such order.',
  IDEMPOTENCY_IN_PROGRESS: 'A create with the same `Idempotency-Key` is still running: repeat it shortly.',
  TOO_MANY_SUBSCRIPTIONS:
    'The order already has `WEB_PUSH_MAX_PER_ORDER` push subscriptions: end one (`DELETE` with its endpoint) before adding another.',
  PAYLOAD_TOO_LARGE: 'The request body is over the size limit.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body is not JSON (`Content-Type: application/json`).',
  PAIR_UNAVAILABLE:
    "A token is inactive, or the deposit token's chain has deposits disabled. Members: `depositTokenId`, `settleTokenId`.",
  NO_QUOTE: 'The swap service has no price for this pair and amount right now.',
  IDEMPOTENCY_KEY_REUSED: 'This `Idempotency-Key` was already used with a different request body.',
  RATE_LIMITED:
    'The caller went over a limit. The `Retry-After` header and member `retryAfter` say how many seconds to wait; member `group` names the rate-limit group.',
  REQUEST_TIMEOUT:
    'The client did not send its request head within `HEADERS_TIMEOUT_MS`, or its whole request within `REQUEST_TIMEOUT_MS`. The connection is closed after this answer.',
  URI_TOO_LONG: 'The request target is over the limit: a path parameter, or the whole URL.',
  HEADERS_TOO_LARGE: "The request's headers are over the limit. The connection is closed after this answer.",
  INTERNAL: 'A fault in the gateway itself. It is logged with the request id; it should never happen.',
  UPSTREAM_ERROR:
    'The swap service failed (a generic 500, or an answer that is not one of its documented envelopes). Retryable for reads, not for create.',
  UPSTREAM_BAD_RESPONSE: 'The swap service answered 2xx with a body that is not the documented JSON.',
  UPSTREAM_AUTH_FAILED:
    "The swap service rejected the gateway's tenant key: an operator problem, logged at error level.",
  ORDER_OUTCOME_UNKNOWN:
    'A create was sent but no answer came back. An unfunded order may exist upstream (it expires unfunded; nothing is at risk until a deposit), so creating again is safe.',
  UPSTREAM_UNAVAILABLE:
    'The swap service could not be reached (refused, reset, circuit open), or it is rate-limiting the gateway (then `Retry-After` and `retryAfter` carry its wait).',
  SERVICE_UNAVAILABLE:
    'The gateway is shutting down, over its stream capacity, or not ready (`/readyz`). Retry, ideally against another instance.',
  UPSTREAM_TIMEOUT: "The swap service did not answer within the request's deadline.",
}

export interface CatalogueEntry {
  code: ErrorCode
  slug: string
  status: number
  title: string
  retryable: boolean
  meaning: string
}

export const errorCatalogue = (): CatalogueEntry[] =>
  (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => ({
    code,
    slug: codeSlug(code),
    status: ERROR_CODES[code].status,
    title: ERROR_CODES[code].title,
    retryable: ERROR_CODES[code].retryable,
    meaning: MEANINGS[code],
  }))
