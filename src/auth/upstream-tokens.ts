// Reading what the upstream hands out at sign-in and refresh: the access token's expiry (its `exp`
// claim) and the `refresh_token` cookie, kept exactly as set because the upstream accepts only that.
import { decodeJwt } from 'jose'
import { parseSetCookie } from 'set-cookie-parser'

/** The access token's documented lifetime, used only if the token carries no readable `exp`. */
export const ACCESS_TOKEN_LIFETIME_MS = 15 * 60 * 1000

/** The access token's expiry in ms: its `exp` claim, or the documented 15 minutes from now. */
export function accessTokenExpiry(accessToken: string, now: number): number {
  try {
    const { exp } = decodeJwt(accessToken)
    if (typeof exp === 'number' && Number.isFinite(exp)) return exp * 1000
  } catch {
    // Not a JWT we can read: fall back to the documented lifetime.
  }
  return now + ACCESS_TOKEN_LIFETIME_MS
}

type Headers = Record<string, string | string[] | undefined>

/** A cookie the upstream set on this answer, raw (URL-encoding and all), or undefined. */
export function upstreamCookie(headers: Headers, name: string): string | undefined {
  const setCookie = headers['set-cookie']
  if (setCookie === undefined) return undefined
  const cookie = parseSetCookie(setCookie, { decodeValues: false, map: true, silent: true })[name]
  return cookie?.value ? cookie.value : undefined
}
