// The problem document (docs/api.md, "Errors") as a schema: what the OpenAPI document names `Problem` and
// what the typed client's GatewayProblem carries. errors.ts renders it; this only describes it.
import { z } from 'zod'
import { ERROR_CODES, type ErrorCode } from '../errors.js'

/** A sign-in challenge (docs/auth.md): what the challenge route answers, and SESSION_EXPIRED carries. */
export const challengeAnswer = z
  .looseObject({
    nonce: z.string().describe('A single-use nonce from the swap service.'),
    message: z
      .string()
      .optional()
      .describe('With `address` and `chainId`: the EIP-4361 message to sign, naming the asking page.'),
  })
  .meta({ id: 'Challenge' })
export type Challenge = z.infer<typeof challengeAnswer>

const codes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]

export const problemSchema = z
  .looseObject({
    type: z.url().describe('An absolute URI naming the code: its anchor on the error codes page.'),
    title: z.string().describe('Short text for the code, the same for every occurrence.'),
    status: z.int().describe('The HTTP status.'),
    code: z.enum(codes).describe('The stable machine code. Clients branch on this.'),
    detail: z.string().describe('Text for this occurrence, written by the gateway.'),
    retryable: z.boolean().describe('Whether the same request may succeed later, unchanged.'),
    requestId: z.string().describe("This request's id, also in the x-request-id header."),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('VALIDATION_FAILED (and INVALID_AMOUNT): one entry per bad field.'),
    challenge: challengeAnswer
      .optional()
      .describe(
        'SESSION_EXPIRED, and a verify refused because its nonce or message had lapsed (NONCE_INVALID, SIGNATURE_INVALID): a fresh challenge, so the wallet can sign again at once.',
      ),
    side: z.enum(['deposit', 'settle']).optional().describe('UNKNOWN_TOKEN: which token of the pair.'),
    tokenId: z.int().optional().describe('UNKNOWN_TOKEN: the id not in the catalog.'),
    network: z.string().optional().describe('INVALID_ADDRESS: the settle chain that refused the address.'),
    depositTokenId: z.int().optional().describe('PAIR_UNAVAILABLE: the pair.'),
    settleTokenId: z.int().optional().describe('PAIR_UNAVAILABLE: the pair.'),
    retryAfter: z
      .int()
      .optional()
      .describe('RATE_LIMITED, UPSTREAM_UNAVAILABLE: seconds to wait (also the Retry-After header).'),
    group: z.string().optional().describe('RATE_LIMITED: the rate-limit group that was exceeded.'),
    limit: z.int().optional().describe("RATE_LIMITED: the group's limit per window."),
    checks: z
      .record(z.string(), z.string())
      .optional()
      .describe('SERVICE_UNAVAILABLE from /readyz: what is not ready, by check.'),
  })
  .meta({ id: 'Problem' })
export type Problem = z.infer<typeof problemSchema>
