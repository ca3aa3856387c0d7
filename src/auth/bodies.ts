// The bodies the auth routes answer (docs/auth.md). The OpenAPI document names them (`Session`,
// `SignInResult`; `Challenge` is in edge/problem-schema.ts, as problems carry it too) and the typed
// client takes its types from them.
import { z } from 'zod'
import { documented } from '../edge/wire-types.js'

// What sign-in took is bounded by its checks (auth/schemas.ts); the rest comes from the swap service,
// which gives no limits: documented, not checked (edge/wire-types.ts).

const wallet = {
  address: documented(z.string(), { maxLength: 128 }).describe('The signed-in wallet.'),
  chainId: documented(z.string(), { maxLength: 64 }).describe(
    'Its chain, as given at sign-in (`1` or `eip155:1`).',
  ),
}
const signedIn = {
  signedIn: z.literal(true),
  ...wallet,
  userId: documented(z.string(), { maxLength: 128 })
    .nullable()
    .describe("The swap service's user id (`userId` on their orders)."),
  expiresAt: documented(z.iso.datetime(), { maxLength: 32 }).describe(
    'When the access token lapses (ISO 8601 UTC).',
  ),
  expiresIn: documented(z.int(), { minimum: 0, maximum: 2_592_000 }).describe(
    'Whole seconds until expiresAt.',
  ),
}

export const sessionAnswer = z
  .union([
    z.looseObject(signedIn).meta({ title: 'SignedIn' }),
    z
      .looseObject({
        signedIn: z.literal(false),
        expired: z.literal(true).describe('The access token has lapsed: ask this wallet to sign again.'),
        ...wallet,
      })
      .meta({ title: 'Lapsed' }),
    z
      .looseObject({
        signedIn: z.literal(false),
        expired: z
          .literal(false)
          .optional()
          .describe('Never sent: here so that `expired` narrows the union.'),
      })
      .meta({ title: 'SignedOut' }),
  ])
  .meta({
    id: 'Session',
    description:
      'Who is signed in: `signedIn: true` with the expiry; `signedIn: false, expired: true` with the wallet to ask again; or `signedIn: false`.',
  })
export type SessionView = z.infer<typeof sessionAnswer>

export const signInResult = z
  .looseObject({
    ...signedIn,
    // The sealed session, as the cookie carries it: within a browser's 4096-byte cookie.
    sessionToken: documented(z.string(), { maxLength: 4096 })
      .optional()
      .describe('Only with the request header `X-Session-Mode: token` (or a Bearer session).'),
  })
  .meta({ id: 'SignInResult' })
export type SignInResult = z.infer<typeof signInResult>
