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
 * A token this close to its `exp` counts as lapsed, so no call reaches the upstream with a token that
 * lapses on the way (where create would quietly lose its attribution).
 */
export const LAPSE_MARGIN_MS = 30_000

export const isLapsed = (session: Session, now: number) => now >= session.expiresAt - LAPSE_MARGIN_MS

/** The signed-in view (verify, refresh, session): identity and expiry, never a token. */
export function signedInView(session: Session, now: number) {
  return {
    signedIn: true as const,
    address: session.address,
    chainId: session.chainId,
    userId: session.userId,
    expiresAt: new Date(session.expiresAt).toISOString(),
    expiresIn: Math.max(0, Math.floor((session.expiresAt - now) / 1000)),
  }
}

export interface SessionCookie {
  name: string
  secure: boolean
}

/** `__Host-session` (Secure, Path=/, no Domain) when browsers reach us over HTTPS; `session` otherwise. */
export function sessionCookieFor(publicOrigin: string): SessionCookie {
  const secure = new URL(publicOrigin).protocol === 'https:'
  return { name: secure ? '__Host-session' : 'session', secure }
}

export const cookieAttributes = (cookie: SessionCookie) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure: cookie.secure }) as const
