// Inputs of the auth routes (docs/auth.md), checked before any upstream call.
import { isAddress } from './address.js'
import { z } from 'zod'
import { bodyField, bodyObject, queryField } from '../edge/field-messages.js'

const CHAIN_ID = /^(?:eip155:)?[1-9]\d{0,15}$/
/** Printable ASCII without spaces: what an address, chain id or signature can be made of. */
const TOKEN_TEXT = /^[\x21-\x7e]+$/

export const challengeQuery = z
  .object({
    address: z
      .string({ error: queryField('must be an EVM address') })
      .length(42, 'must be an EVM address (0x and 40 hex digits)')
      .refine(
        (a) => isAddress(a),
        'must be an EVM address (0x and 40 hex digits, checksummed when mixed-case)',
      )
      .optional(),
    chainId: z
      .string({ error: queryField('must be a chain id') })
      .max(23, 'must be a decimal EVM chain id (1) or CAIP-2 (eip155:1)')
      .regex(CHAIN_ID, 'must be a decimal EVM chain id (1) or CAIP-2 (eip155:1)')
      .optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.address === undefined) === (q.chainId === undefined)) return
    const missing = q.address === undefined ? 'address' : 'chainId'
    ctx.addIssue({ code: 'custom', path: [missing], message: 'address and chainId must be given together' })
  })

/** Text of 1 to `max` characters. */
const bounded = (max: number) =>
  z
    .string({ error: bodyField('must be a string') })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
const tokenText = (max: number) => bounded(max).regex(TOKEN_TEXT, 'must be printable text without spaces')

/** The upstream's verify body; only its documented fields are forwarded. */
export const verifyBody = z
  .object(
    {
      data: z.object(
        { chainId: tokenText(64), accountAddress: tokenText(128) },
        { error: bodyField('must be an object') },
      ),
      message: bounded(4096),
      signature: tokenText(2048),
    },
    { error: bodyObject },
  )
  .meta({ id: 'VerifySignInBody', description: 'A signed sign-in message, as the swap service takes it.' })
export type VerifyBody = z.infer<typeof verifyBody>

/** `X-Session-Mode: token` asks for the sealed session in the body too, for clients without cookies. */
export const sessionModeHeaders = z.looseObject({
  'x-session-mode': z.enum(['token', 'cookie'], { message: 'must be token or cookie' }).optional(),
})
