// Every problem the gateway answers, one function per condition: its code, its detail text and its
// members are written here once, and a caller passes only what varies (an id, a side, a cause).
// errors.ts holds the codes and renders the documents; nothing else makes a GatewayError. Beside
// errors.ts at the bottom of the sources: every layer makes problems, so this imports nothing above.
import { type ErrorCode, type FieldError, GatewayError } from './errors.js'

/**
 * A call the tenant key's quota kept from leaving: the call budget was spent for that second, or the
 * pause after an upstream 429 is running. Nothing was asked of the upstream, so callers that repeat
 * on their own (a live quote's refresh) wait for their next turn instead of reporting a failure.
 */
export class QuotaRefusal extends GatewayError {}

type Pair = { depositTokenId: number | string; settleTokenId: number | string }

/** Both the `retryAfter` member and the Retry-After header, which say the same. */
const retryAfter = (seconds: number) => ({
  members: { retryAfter: seconds },
  headers: { 'retry-after': String(seconds) },
})

const UPSTREAM_RATE_LIMITING = 'The swap service is rate-limiting the gateway.'
const SANDBOX_REFUSED = 'The sandbox refused the control call'

export const problems = {
  // The request itself, as the edge reads it.
  invalidField: (code: ErrorCode, where: string, field: string, errors: FieldError[]) =>
    new GatewayError(code, `The ${where} parameter "${field}" is not valid.`, { errors }),
  invalidInput: (where: string, errors: FieldError[]) =>
    new GatewayError('VALIDATION_FAILED', `The request ${where} is not valid.`, { errors }),
  bodyNotJson: () =>
    new GatewayError('VALIDATION_FAILED', 'The request body is not valid JSON.', {
      errors: [{ path: 'body', message: 'is not valid JSON' }],
    }),
  bodyTooLarge: () => new GatewayError('PAYLOAD_TOO_LARGE', 'The request body is larger than allowed.'),
  bodyNotJsonType: () => new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.'),
  malformedUrl: () =>
    new GatewayError('VALIDATION_FAILED', 'The URL is malformed.', {
      errors: [{ path: 'url', message: 'is not a valid URL (malformed percent-encoding)' }],
    }),
  pathParameterTooLong: () => new GatewayError('URI_TOO_LONG', 'A path parameter is longer than allowed.'),
  requestTargetTooLong: () => new GatewayError('URI_TOO_LONG', 'The request target is longer than allowed.'),
  headersTooLarge: () =>
    new GatewayError('HEADERS_TOO_LARGE', 'The request headers are larger than allowed.'),
  requestTooSlow: () => new GatewayError('REQUEST_TIMEOUT', 'The request did not arrive in time.'),
  notHttp: () => new GatewayError('VALIDATION_FAILED', 'The request could not be read as HTTP/1.1.'),
  noSuchRoute: () => new GatewayError('NOT_FOUND', 'There is no such route.'),
  noSuchFile: () => new GatewayError('NOT_FOUND', 'There is no such file.'),
  notServable: () =>
    new GatewayError('VALIDATION_FAILED', 'The request cannot be served as sent.', {
      errors: [
        { path: 'header', message: 'asks for what this resource cannot meet (a range, a precondition)' },
      ],
    }),
  internal: (cause: unknown) =>
    new GatewayError('INTERNAL', 'The gateway failed; this has been logged.', { cause }),

  // The edge's refusals: origin, rate limits, stream places, readiness.
  originNotAllowed: () =>
    new GatewayError('ORIGIN_NOT_ALLOWED', 'Requests from this origin are not allowed.'),
  cookieWithoutOrigin: () =>
    new GatewayError(
      'ORIGIN_NOT_ALLOWED',
      'A request that changes state with the session cookie must come from an allowed Origin; other clients use the Bearer session token.',
    ),
  /** `whose`: the client's requests or the IP's (the ceiling over every group). */
  rateLimited: (
    rule: { group: string; limit: number; whose: string },
    seconds: number,
    headers: Record<string, string> = {},
  ) =>
    new GatewayError(
      'RATE_LIMITED',
      `Too many requests ${rule.whose} in the "${rule.group}" group; retry after ${seconds} s.`,
      {
        members: { retryAfter: seconds, group: rule.group, limit: rule.limit },
        headers: { ...headers, 'retry-after': String(seconds) },
      },
    ),
  tooManyStreams: (maxPerIp: number, seconds: number) =>
    new GatewayError(
      'RATE_LIMITED',
      `At most ${maxPerIp} streams (order status and live quote) may be open per client.`,
      retryAfter(seconds),
    ),
  noRoomForStream: (seconds: number) =>
    new GatewayError(
      'SERVICE_UNAVAILABLE',
      'The gateway has no room for another stream now.',
      retryAfter(seconds),
    ),
  notReady: (failing: Record<string, string>, degraded: Record<string, string>) =>
    new GatewayError('SERVICE_UNAVAILABLE', 'This instance is not ready to serve.', {
      members: { checks: failing, ...(Object.keys(degraded).length > 0 ? { degraded } : {}) },
    }),

  // Tokens, pairs and quotes.
  unknownToken: (side: string, tokenId: number | string) =>
    new GatewayError('UNKNOWN_TOKEN', `The ${side} token ${tokenId} is not in the catalog.`, {
      members: { side, tokenId },
    }),
  tokenNotFound: (tokenId: number) =>
    new GatewayError('TOKEN_NOT_FOUND', `No token has id ${tokenId}.`, { members: { tokenId } }),
  depositTokenInactive: (pair: Pair) =>
    pairUnavailable(pair, `The deposit token ${pair.depositTokenId} is not active.`),
  depositsDisabled: (pair: Pair, network: string) =>
    pairUnavailable(pair, `Deposits are disabled on the deposit token's chain (${network}).`),
  settleTokenInactive: (pair: Pair) =>
    pairUnavailable(pair, `The settle token ${pair.settleTokenId} is not active.`),
  noTradePath: (pair: Pair) => pairUnavailable(pair, 'This pair cannot be traded now.'),
  noQuote: (pair: Pair) =>
    new GatewayError('NO_QUOTE', 'No price is available for this pair and amount right now.', {
      members: { depositTokenId: pair.depositTokenId, settleTokenId: pair.settleTokenId },
    }),
  /** The upstream's refusal of an amount; a create's own check names the field (intendedAmountNotPositive). */
  amountNotPositive: () => new GatewayError('INVALID_AMOUNT', 'The amount must be a positive number.'),
  intendedAmountNotPositive: () =>
    new GatewayError('INVALID_AMOUNT', 'The intended amount must be above zero.', {
      errors: [{ path: 'body.intendedAmount', message: 'must be a positive number' }],
    }),
  invalidAddress: (network: string) =>
    new GatewayError('INVALID_ADDRESS', `The receiving address is not a valid ${network} address.`, {
      members: { network },
    }),
  catalogUnavailable: (cause: unknown) =>
    new GatewayError('UPSTREAM_UNAVAILABLE', 'The token catalog could not be loaded from the swap service.', {
      cause,
    }),
  catalogLoadAbandoned: () =>
    new GatewayError('UPSTREAM_UNAVAILABLE', 'The token catalog load was abandoned.'),
  noLiveQuote: () => new GatewayError('UPSTREAM_UNAVAILABLE', 'No quote could be had from the swap service.'),
  liveQuoteFailed: (cause: unknown) =>
    new GatewayError('INTERNAL', 'The gateway failed to refresh the quote; this has been logged.', { cause }),

  // Orders.
  orderNotFound: () => new GatewayError('ORDER_NOT_FOUND', 'No order has this id.'),
  orderOutcomeUnknown: () =>
    new GatewayError(
      'ORDER_OUTCOME_UNKNOWN',
      'The order request was sent but no answer came back. An unfunded order may exist; it expires on its own, so creating again is safe.',
    ),
  idempotencyKeyReused: () =>
    new GatewayError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different body.'),
  idempotencyInProgress: () =>
    new GatewayError('IDEMPOTENCY_IN_PROGRESS', 'The first request with this key is still running.'),
  /** The first final answer to an Idempotency-Key, as it was kept, answered again. */
  replayed: (
    kept: Pick<GatewayError, 'code' | 'detail' | 'retryable' | 'members'> & { errors?: FieldError[] },
  ) =>
    new GatewayError(kept.code, kept.detail, {
      retryable: kept.retryable,
      members: kept.members,
      errors: kept.errors,
      headers: { 'idempotent-replayed': 'true' },
    }),
  historyNeedsSignIn: () => new GatewayError('AUTH_REQUIRED', 'Sign in to see your order history.'),

  // Web Push subscriptions.
  pushEndpointRefused: (message: string) =>
    new GatewayError('INVALID_PUSH_SUBSCRIPTION', "The push subscription's endpoint is not allowed.", {
      errors: [{ path: 'body.endpoint', message }],
    }),
  tooManySubscriptions: (max: number) =>
    new GatewayError(
      'TOO_MANY_SUBSCRIPTIONS',
      `This order already has ${max} push subscriptions; end one (with its endpoint) to add another.`,
    ),
  pushSubscriptionsUnavailable: () =>
    new GatewayError('SERVICE_UNAVAILABLE', 'Push subscriptions cannot be stored now; try again shortly.'),

  // Sign-in and sessions.
  signInRequired: () => new GatewayError('AUTH_REQUIRED', 'Sign in first.'),
  signInLapsed: (challenge: object) =>
    new GatewayError('SESSION_EXPIRED', 'The sign-in has lapsed: sign the challenge to continue.', {
      members: { challenge },
    }),
  sessionNotRenewed: (challenge: object) =>
    new GatewayError('SESSION_EXPIRED', 'The session could not be renewed: sign the challenge to continue.', {
      members: { challenge },
    }),
  renewalRefused: () => new GatewayError('SESSION_EXPIRED', 'The session could not be renewed.'),
  sessionNotAccepted: () =>
    new GatewayError('SESSION_EXPIRED', 'The swap service no longer accepts this session.'),
  signInMessageRefused: (why: string) =>
    new GatewayError('SIGNATURE_INVALID', `The sign-in message was refused: ${why}.`),
  signInMessageLapsed: () =>
    new GatewayError(
      'SIGNATURE_INVALID',
      'The sign-in message has expired (it lives as long as its nonce): sign the fresh challenge.',
    ),
  signatureInvalid: () => new GatewayError('SIGNATURE_INVALID', 'The signature did not verify.'),
  nonceMissing: () => new GatewayError('NONCE_MISSING', 'The sign-in message has no Nonce line.'),
  nonceInvalid: () => new GatewayError('NONCE_INVALID', 'The nonce is unknown, used or expired.'),

  // The upstream: its answers, its failures, and the calls kept from it.
  breakerOpen: () =>
    new GatewayError('UPSTREAM_UNAVAILABLE', 'The swap service is failing; calls are paused briefly.'),
  upstreamRateLimiting: (seconds: number) =>
    new GatewayError('UPSTREAM_UNAVAILABLE', UPSTREAM_RATE_LIMITING, retryAfter(seconds)),
  /** The pause after an upstream 429: nothing was asked of the upstream. */
  coolingDown: (seconds: number) =>
    new QuotaRefusal('UPSTREAM_UNAVAILABLE', UPSTREAM_RATE_LIMITING, retryAfter(seconds)),
  callBudgetSpent: () =>
    new QuotaRefusal(
      'UPSTREAM_UNAVAILABLE',
      'The gateway is at its call rate to the swap service; retry in a second.',
      retryAfter(1),
    ),
  upstreamTimeout: (cause?: unknown) =>
    new GatewayError('UPSTREAM_TIMEOUT', 'The swap service did not answer in time.', { cause }),
  upstreamUnreachable: (cause: unknown) =>
    new GatewayError('UPSTREAM_UNAVAILABLE', 'The swap service could not be reached.', { cause }),
  upstreamConnectionFailed: (cause: unknown) =>
    new GatewayError('UPSTREAM_UNAVAILABLE', 'The connection to the swap service failed.', { cause }),
  upstreamFailed: (retry: { retryable: boolean }) =>
    new GatewayError('UPSTREAM_ERROR', 'The swap service failed to answer this request.', retry),
  upstreamUnreadable: () =>
    new GatewayError('UPSTREAM_BAD_RESPONSE', 'The swap service sent an unreadable answer.'),
  upstreamRefusedAsMalformed: () =>
    new GatewayError('VALIDATION_FAILED', 'The swap service refused the request as malformed.'),
  tenantKeyRejected: () =>
    new GatewayError('UPSTREAM_AUTH_FAILED', 'The swap service rejected the gateway credentials.'),

  // The built-in sandbox's control routes (a development aid).
  sandboxRefused: (code: 'NOT_FOUND' | 'VALIDATION_FAILED', why: string | undefined) =>
    new GatewayError(code, why === undefined ? `${SANDBOX_REFUSED}.` : `${SANDBOX_REFUSED}: ${why}`),
  sandboxFailed: () => new GatewayError('UPSTREAM_ERROR', 'The sandbox failed to answer the control call.'),
  sandboxUnreachable: (cause: unknown) =>
    new GatewayError('UPSTREAM_UNAVAILABLE', 'The sandbox could not be reached.', { cause }),
}

function pairUnavailable(pair: Pair, detail: string) {
  return new GatewayError('PAIR_UNAVAILABLE', detail, {
    members: { depositTokenId: pair.depositTokenId, settleTokenId: pair.settleTokenId },
  })
}
