// The problem document (docs/api.md, "Errors") as a schema: what the OpenAPI document names `Problem` and
// what the typed client's GatewayProblem carries. errors.ts renders it; this only describes it.
import { z } from 'zod'
import { ERROR_CODES, type ErrorCode } from '../errors.js'
import { documented, ID_MAX } from './wire-types.js'

// Bounds documented, not checked (wire-types.ts): the gateway writes these documents itself.
const text = (maxLength: number) => documented(z.string(), { maxLength })
const id = () => documented(z.int(), { minimum: 1, maximum: ID_MAX })

/** A sign-in challenge (docs/auth.md): what the challenge route answers, and SESSION_EXPIRED carries. */
export const challengeAnswer = z
  .looseObject({
    nonce: text(256).describe('A single-use nonce from the swap service.'),
    message: text(4096)
      .optional()
      .describe('With `address` and `chainId`: the EIP-4361 message to sign, naming the asking page.'),
  })
  .meta({ id: 'Challenge' })
export type Challenge = z.infer<typeof challengeAnswer>

const codes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]

export const problemSchema = z
  .looseObject({
    type: documented(z.url(), { maxLength: 2048 }).describe(
      'An absolute URI naming the code: its anchor on the error codes page.',
    ),
    title: text(256).describe('Short text for the code, the same for every occurrence.'),
    status: documented(z.int(), { minimum: 400, maximum: 599 }).describe('The HTTP status.'),
    code: z.enum(codes).describe('The stable machine code. Clients branch on this.'),
    detail: text(2048).describe('Text for this occurrence, written by the gateway.'),
    retryable: z.boolean().describe('Whether the same request may succeed later, unchanged.'),
    requestId: text(128).describe("This request's id, also in the x-request-id header."),
    errors: documented(z.array(z.object({ path: text(256), message: text(512) })), { maxItems: 100 })
      .optional()
      .describe('VALIDATION_FAILED (and INVALID_AMOUNT): one entry per bad field.'),
    challenge: challengeAnswer
      .optional()
      .describe(
        'SESSION_EXPIRED, and a verify refused because its nonce or message had lapsed (NONCE_INVALID, SIGNATURE_INVALID): a fresh challenge, so the wallet can sign again at once.',
      ),
    side: z.enum(['deposit', 'settle']).optional().describe('UNKNOWN_TOKEN: which token of the pair.'),
    tokenId: id().optional().describe('UNKNOWN_TOKEN: the id not in the catalog.'),
    network: text(32).optional().describe('INVALID_ADDRESS: the settle chain that refused the address.'),
    depositTokenId: id().optional().describe('PAIR_UNAVAILABLE: the pair.'),
    settleTokenId: id().optional().describe('PAIR_UNAVAILABLE: the pair.'),
    retryAfter: documented(z.int(), { minimum: 0, maximum: ID_MAX })
      .optional()
      .describe('RATE_LIMITED, UPSTREAM_UNAVAILABLE: seconds to wait (also the Retry-After header).'),
    group: text(32).optional().describe('RATE_LIMITED: the rate-limit group that was exceeded.'),
    limit: documented(z.int(), { minimum: 0, maximum: ID_MAX })
      .optional()
      .describe("RATE_LIMITED: the group's limit per window."),
    checks: z
      .record(text(64), text(512))
      .optional()
      .describe('SERVICE_UNAVAILABLE from /readyz: what is not ready, by check.'),
  })
  .meta({ id: 'Problem' })
export type Problem = z.infer<typeof problemSchema>
