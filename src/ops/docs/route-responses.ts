// The answers of each public route (CONTRACT.md §2–§8), for the OpenAPI document: the success status,
// body and headers, and the error codes the route can send. Routes describe their inputs themselves
// (zod schemas); success bodies are the upstream's, so they are described with the upstream schemas.
import { z } from 'zod'
import type { ErrorCode } from '../../errors.js'
import {
  blockchainSchema,
  catalogSchema,
  historySchema,
  orderSchema,
  quoteSchema,
  swapLimitsSchema,
  tokenSchema,
} from '../../upstream/schemas.js'

export interface SuccessDoc {
  status: number
  description: string
  /** Absent for bodiless answers (204, 304). */
  body?: z.ZodType
  contentType?: string
  headers?: Record<string, string>
}

export interface RouteDoc {
  success: SuccessDoc[]
  errors: ErrorCode[]
}

const UPSTREAM: ErrorCode[] = [
  'UPSTREAM_ERROR',
  'UPSTREAM_BAD_RESPONSE',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
]
const TENANT: ErrorCode[] = [...UPSTREAM, 'UPSTREAM_AUTH_FAILED']
const CATALOG: ErrorCode[] = ['VALIDATION_FAILED', 'UPSTREAM_UNAVAILABLE']
const PAIR: ErrorCode[] = ['VALIDATION_FAILED', 'UNKNOWN_TOKEN', 'PAIR_UNAVAILABLE']

/** Errors any public route can answer; RATE_LIMITED is added for rate-limited routes. */
export const COMMON_ERRORS: ErrorCode[] = ['ORIGIN_NOT_ALLOWED', 'INTERNAL', 'SERVICE_UNAVAILABLE']

const CATALOG_HEADERS = {
  ETag: 'Strong validator of the body; send it back in If-None-Match.',
  'Cache-Control': 'A short max-age with stale-while-revalidate.',
  'X-Cache-Status': 'HIT, MISS or STALE (the upstream is down and the last good catalog is served).',
}
const notModified: SuccessDoc = {
  status: 304,
  description: 'Not modified: the If-None-Match ETag is current.',
}

const session = z.looseObject({
  signedIn: z.boolean(),
  address: z.string().optional(),
  chainId: z.string().optional(),
  userId: z.string().nullable().optional(),
  expiresAt: z.iso.datetime().optional(),
  expiresIn: z.int().optional(),
  expired: z.boolean().optional(),
})
const signedIn = z.looseObject({
  signedIn: z.literal(true),
  address: z.string(),
  chainId: z.string(),
  userId: z.string().nullable(),
  expiresAt: z.iso.datetime(),
  sessionToken: z.string().optional().describe('Only with the request header X-Session-Mode: token.'),
})
const ok = (description: string, body: z.ZodType, headers?: Record<string, string>): SuccessDoc => ({
  status: 200,
  description,
  body,
  ...(headers ? { headers } : {}),
})

/** Keyed by method and OpenAPI path below the API prefix (`GET /v1/orders/{uuid}`). */
export const ROUTE_RESPONSES: Record<string, RouteDoc> = {
  'GET /v1/tokens': {
    success: [
      ok('The token catalog, as the upstream sends it, filtered.', catalogSchema, CATALOG_HEADERS),
      notModified,
    ],
    errors: CATALOG,
  },
  'GET /v1/tokens/{id}': {
    success: [ok('One token of the catalog.', tokenSchema, CATALOG_HEADERS), notModified],
    errors: [...CATALOG, 'TOKEN_NOT_FOUND'],
  },
  'GET /v1/chains': {
    success: [
      ok('The distinct chains of the catalog.', z.array(blockchainSchema), CATALOG_HEADERS),
      notModified,
    ],
    errors: CATALOG,
  },
  'GET /v1/tokens/swap-limits': {
    success: [ok("The swap limits of the pair: the upstream's body, untouched.", swapLimitsSchema)],
    errors: [...PAIR, ...TENANT],
  },
  'GET /v1/tokens/quote': {
    success: [ok("The upstream's quote, unknown fields included.", quoteSchema)],
    errors: [...PAIR, 'INVALID_AMOUNT', 'NO_QUOTE', ...TENANT],
  },
  'POST /v1/orders/create': {
    success: [
      {
        status: 201,
        description: 'The created order, with its deposit address (`walletAddress`).',
        body: orderSchema,
        headers: {
          'Idempotent-Replayed':
            '`true` when this is the stored answer of an earlier request with this Idempotency-Key.',
        },
      },
    ],
    errors: [
      ...PAIR,
      'INVALID_AMOUNT',
      'INVALID_ADDRESS',
      'SESSION_EXPIRED',
      'IDEMPOTENCY_IN_PROGRESS',
      'IDEMPOTENCY_KEY_REUSED',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'ORDER_OUTCOME_UNKNOWN',
      ...TENANT,
    ],
  },
  'GET /v1/orders/{uuid}': {
    success: [ok('The order, with its expanded tokens. `Cache-Control: no-store`.', orderSchema)],
    errors: ['INVALID_ORDER_ID', 'ORDER_NOT_FOUND', ...UPSTREAM],
  },
  'GET /v1/orders': {
    success: [ok("A page of the signed-in user's orders.", historySchema)],
    errors: ['VALIDATION_FAILED', 'AUTH_REQUIRED', 'SESSION_EXPIRED', ...UPSTREAM],
  },
  'GET /orders/{uuid}/status-stream': {
    success: [
      {
        status: 200,
        description:
          "Server-sent events: `snapshot` (the full order) first, then `orders:status-update` per transition (the upstream's data plus `order`), a heartbeat comment every SSE_HEARTBEAT_MS; the stream ends after a terminal status.",
        contentType: 'text/event-stream',
        body: z.string(),
      },
      {
        status: 204,
        description: 'A reconnect (Last-Event-ID) for an order that is already terminal: stop reconnecting.',
      },
    ],
    errors: ['INVALID_ORDER_ID', 'ORDER_NOT_FOUND', ...UPSTREAM],
  },
  'GET /auth/siwx/challenge': {
    success: [
      ok(
        'A single-use nonce; with `address` and `chainId`, also the EIP-4361 message to sign.',
        z.looseObject({ nonce: z.string(), message: z.string().optional() }),
      ),
    ],
    errors: ['VALIDATION_FAILED', ...UPSTREAM],
  },
  'POST /auth/siwx/verify': {
    success: [{ status: 201, description: 'Signed in; the session cookie is set.', body: signedIn }],
    errors: [
      'VALIDATION_FAILED',
      'NONCE_MISSING',
      'NONCE_INVALID',
      'SIGNATURE_INVALID',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      ...TENANT,
    ],
  },
  'POST /auth/refresh': {
    success: [ok('The session was renewed.', signedIn)],
    errors: ['AUTH_REQUIRED', 'SESSION_EXPIRED', ...UPSTREAM],
  },
  'GET /auth/me': {
    success: [ok('The signed-in user, as the upstream describes it.', z.looseObject({ id: z.string() }))],
    errors: ['AUTH_REQUIRED', 'SESSION_EXPIRED', ...UPSTREAM],
  },
  'GET /auth/session': {
    success: [ok('The session as the gateway sees it; never 401.', session)],
    errors: [],
  },
  'POST /auth/logout': {
    success: [{ status: 204, description: 'The session is cleared.' }],
    errors: [],
  },
  'GET /openapi.json': {
    success: [ok('This OpenAPI 3.1 document.', z.looseObject({ openapi: z.string() }))],
    errors: [],
  },
  'GET /docs': {
    success: [
      {
        status: 200,
        description: 'The API documentation as a web page.',
        contentType: 'text/html',
        body: z.string(),
      },
    ],
    errors: [],
  },
  'GET /docs/errors': {
    success: [
      {
        status: 200,
        description: 'The error codes, one `#code-slug` anchor each.',
        contentType: 'text/html',
        body: z.string(),
      },
    ],
    errors: [],
  },
}

/** Health routes live outside the API prefix and are never rate-limited. */
export const HEALTH_RESPONSES: Record<string, RouteDoc> = {
  'GET /healthz': {
    success: [ok('The process is alive.', z.object({ status: z.literal('ok') }))],
    errors: [],
  },
  'GET /readyz': {
    success: [
      ok(
        'Ready to serve: the catalog is loaded and the upstream answered recently. `degraded` names shared helpers that are away (Redis) while the instance still serves.',
        z.object({ status: z.literal('ready'), degraded: z.record(z.string(), z.string()).optional() }),
      ),
    ],
    errors: ['SERVICE_UNAVAILABLE'],
  },
}
