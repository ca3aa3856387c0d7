// Refresh tokens (30 days) and their cookie form. The cookie carries a signed value
// (`s:<token>.<hmac>`, URL-encoded when set), so the raw refreshToken from the verify body is not
// accepted as a cookie: only the cookie exactly as it was set is.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { SandboxClock } from '../clock.js'

export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60

export interface RefreshGrant {
  userId: string
  address: string
  chainId: string
  expiresAt: number
}

export class RefreshTokens {
  private readonly key = randomBytes(32)
  private readonly grants = new Map<string, RefreshGrant>()

  constructor(private readonly clock: SandboxClock) {}

  issue(userId: string, address: string, chainId: string): string {
    const token = randomBytes(48).toString('base64url')
    this.grants.set(token, {
      userId,
      address,
      chainId,
      expiresAt: this.clock.now() + REFRESH_TOKEN_TTL_S * 1000,
    })
    return token
  }

  cookieValue(token: string): string {
    return `s:${token}.${this.signature(token)}`
  }

  /** The token inside a cookie value, or undefined when the value is not one this instance signed. */
  unsign(cookieValue: string): string | undefined {
    if (!cookieValue.startsWith('s:')) return undefined
    const dot = cookieValue.lastIndexOf('.')
    if (dot < 2) return undefined
    const token = cookieValue.slice(2, dot)
    const given = Buffer.from(cookieValue.slice(dot + 1))
    const expected = Buffer.from(this.signature(token))
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : undefined
  }

  /** Uses up a live token (rotation); undefined when unknown, used or lapsed. */
  redeem(token: string): RefreshGrant | undefined {
    const grant = this.grants.get(token)
    if (!grant) return undefined
    this.grants.delete(token)
    return grant.expiresAt > this.clock.now() ? grant : undefined
  }

  private signature(token: string): string {
    return createHmac('sha256', this.key).update(token).digest('base64').replace(/=+$/, '')
  }
}
