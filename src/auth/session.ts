// What a session holds, how long it counts, and how it is shown to clients. The upstream's tokens
// live only inside the sealed payload; views never carry them.
import { z } from 'zod'

export const sessionSchema = z.object({
  v: z.literal(1),
  /** Random, never shown: what logout records, so every copy of this session ends with it. */
  sid: z.string().min(1),
  accessToken: z.string().min(1),
  /** The upstream's `refresh_token` cookie value exactly as its Set-Cookie gave it (not decoded). */
  refreshCookie: z.string().min(1).nullable(),
  /** `data.accountAddress` and `data.chainId` as the client signed in with them. */
  address: z.string(),
  chainId: z.string(),
  /** The upstream user id from /auth/me; null when it could not be read at sign-in. */
  userId: z.string().nullable(),
  /** The access token's `exp`, in ms. */
  expiresAt: z.number(),
  /** After this (ms) the seal is no session at all: the upstream refresh token has lapsed too. */
  usableUntil: z.number(),
})
export type Session = z.infer<typeof sessionSchema>

/** The upstream refresh token's lifetime: past it nothing in the session can be used. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000
/**
 * A token within `marginMs` (SESSION_EXPIRY_MARGIN_MS) of its `exp` counts as lapsed: clocks differ
 * between machines, and an upstream that already holds the token lapsed would quietly create an
 * unattributed order with it.
 */
export const isLapsed = (session: Session, now: number, marginMs: number) =>
  now >= session.expiresAt - marginMs

/**
 * The signed-in view (verify, refresh, session): identity and expiry, never a token. The expiry shown
 * is the moment the session counts as lapsed, the margin before the token's `exp`.
 */
export function signedInView(session: Session, now: number, marginMs: number) {
  const lapsesAt = session.expiresAt - marginMs
  return {
    signedIn: true as const,
    address: session.address,
    chainId: session.chainId,
    userId: session.userId,
    expiresAt: new Date(lapsesAt).toISOString(),
    expiresIn: Math.max(0, Math.floor((lapsesAt - now) / 1000)),
  }
}
