// Access tokens: HS256 JWTs valid 15 minutes on the sandbox clock, under a key that belongs to
// this sandbox instance. Signing is done with node:crypto so control.issueAccessToken can stay
// synchronous (jose only signs asynchronously); verification is jose's, clock-aware.
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
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

export class AccessTokens {
  private readonly key = new Uint8Array(randomBytes(32))

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
    return `${unsigned}.${createHmac('sha256', this.key).update(unsigned).digest('base64url')}`
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
