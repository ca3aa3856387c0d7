// The bodies the auth routes answer (CONTRACT.md §7). The OpenAPI document names them (`Session`,
// `SignInResult`, `Challenge`) and the typed client takes its types from them.
import { z } from 'zod'

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

export const sessionAnswer = z
  .looseObject({
    signedIn: z.boolean(),
    expired: z.boolean().optional().describe('The access token has lapsed: ask this wallet to sign again.'),
    address: z.string().optional(),
    chainId: z.string().optional(),
    userId: z.string().nullable().optional(),
    expiresAt: z.iso.datetime().optional().describe('When the access token lapses (ISO 8601 UTC).'),
    expiresIn: z.int().optional().describe('Whole seconds until expiresAt.'),
  })
  .meta({ id: 'Session' })
export type SessionView = z.infer<typeof sessionAnswer>

export const signInResult = z
  .looseObject({
    signedIn: z.literal(true),
    address: z.string(),
    chainId: z.string(),
    userId: z.string().nullable(),
    expiresAt: z.iso.datetime(),
    expiresIn: z.int().optional(),
    sessionToken: z
      .string()
      .optional()
      .describe('Only with the request header `X-Session-Mode: token` (or a Bearer session).'),
  })
  .meta({ id: 'SignInResult' })
export type SignInResult = z.infer<typeof signInResult>
