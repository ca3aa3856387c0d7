// Inputs of the auth routes (CONTRACT.md §7), checked before any upstream call.
import { isAddress } from 'viem'
import { z } from 'zod'

const CHAIN_ID = /^(?:eip155:)?[1-9]\d{0,15}$/
/** Printable ASCII without spaces: what an address, chain id or signature can be made of. */
const TOKEN_TEXT = /^[\x21-\x7e]+$/

export const challengeQuery = z
  .object({
    address: z
      .string()
      .refine(
        (a) => isAddress(a),
        'must be an EVM address (0x and 40 hex digits, checksummed when mixed-case)',
      )
      .optional(),
    chainId: z.string().regex(CHAIN_ID, 'must be a decimal EVM chain id (1) or CAIP-2 (eip155:1)').optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.address === undefined) === (q.chainId === undefined)) return
    const missing = q.address === undefined ? 'address' : 'chainId'
    ctx.addIssue({ code: 'custom', path: [missing], message: 'address and chainId must be given together' })
  })

/** The upstream's verify body; only its documented fields are forwarded. */
export const verifyBody = z.object({
  data: z.object({
    chainId: z.string().min(1).max(64).regex(TOKEN_TEXT, 'must be printable text without spaces'),
    accountAddress: z.string().min(1).max(128).regex(TOKEN_TEXT, 'must be printable text without spaces'),
  }),
  message: z.string().min(1).max(4096),
  signature: z.string().min(1).max(2048).regex(TOKEN_TEXT, 'must be printable text without spaces'),
})
export type VerifyBody = z.infer<typeof verifyBody>

/** `X-Session-Mode: token` asks for the sealed session in the body too, for clients without cookies. */
export const sessionModeHeaders = z.looseObject({
  'x-session-mode': z.enum(['token', 'cookie'], { message: 'must be token or cookie' }).optional(),
})
