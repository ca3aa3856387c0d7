// Access tokens: HS256 JWTs valid 15 minutes on the sandbox clock, under a key that belongs to
// this sandbox instance. Signing is done with node:crypto so control.issueAccessToken can stay
// synchronous (jose only signs asynchronously); verification is jose's, clock-aware. A lapse
// replaces the key: every token issued before it is no credential any more, exactly as a token past
// its `exp` (the upstream answers both alike), and tokens issued after it are untouched.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { jwtVerify } from 'jose'
import { z } from 'zod'
import type { SandboxClock } from '../clock.js'

export const ACCESS_TOKEN_TTL_S = 15 * 60

const claimsSchema = z.object({
  sub: z.uuid(),
  address: z.string(),
  chainId: z.string(),
  iat: z.number(),
  exp: z.number(),
  jti: z.uuid(),
})
export type AccessClaims = z.infer<typeof claimsSchema>

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

const newKey = () => new Uint8Array(randomBytes(32))

export class AccessTokens {
  private key = newKey()

  constructor(private readonly clock: SandboxClock) {}

  issue(userId: string, address: string, chainId: string): string {
    const iat = Math.floor(this.clock.now() / 1000)
    const unsigned = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({
      sub: userId,
      address,
      chainId,
      iat,
      exp: iat + ACCESS_TOKEN_TTL_S,
      // Two tokens issued in the same second must still differ (a refresh must change the token).
      jti: randomUUID(),
    })}`
    return `${unsigned}.${this.signature(unsigned)}`
  }

  /** Every token issued so far lapses now. */
  lapseAll(): void {
    this.key = newKey()
  }

  /**
   * Whether the token would still be accepted, synchronously: signed under the current key and not
   * past its `exp` on the sandbox clock. (The gateway started with the built-in sandbox asks this.)
   */
  isLive(token: string): boolean {
    const [header, payload, signature] = token.split('.')
    if (header === undefined || payload === undefined || signature === undefined) return false
    const expected = Buffer.from(this.signature(`${header}.${payload}`))
    const given = Buffer.from(signature)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp
    return typeof exp === 'number' && exp > Math.floor(this.clock.now() / 1000)
  }

  private signature(unsigned: string): string {
    return createHmac('sha256', this.key).update(unsigned).digest('base64url')
  }

  /** The claims of a token this instance signed and that has not lapsed; undefined otherwise. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      })
      return claimsSchema.parse(payload)
    } catch {
      return undefined
    }
  }
}
