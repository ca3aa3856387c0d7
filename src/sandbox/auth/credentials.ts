// Reading a caller's credentials the way the upstream does: an access token from the Bearer
// header or the `access_token` cookie, and the tenant key header. A stale or foreign token is
// simply not a credential; whether that is fatal depends on the route.
import type { FastifyRequest } from 'fastify'
import { unauthorized } from '../envelopes.js'
import type { AccessClaims, AccessTokens } from './access-tokens.js'

export const TENANT_HEADER = 'x-tenant-api-key'

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')
  return match?.[1]
}

/** The claims of the first valid access token the request carries, header or cookie. */
async function accessClaims(
  request: FastifyRequest,
  tokens: AccessTokens,
): Promise<AccessClaims | undefined> {
  for (const token of [bearerToken(request), request.cookies.access_token]) {
    if (token === undefined) continue
    const claims = await tokens.verify(token)
    if (claims) return claims
  }
  return undefined
}

/** For JWT-only routes (history, /auth/me). */
export async function requireAccessToken(
  request: FastifyRequest,
  tokens: AccessTokens,
): Promise<AccessClaims> {
  const claims = await accessClaims(request, tokens)
  if (!claims) throw unauthorized('Access token not found in cookies or authorization header.')
  return claims
}

/**
 * For pricing and create: a valid access token, or else the tenant key. Returns the user the call
 * is attributed to, null for tenant-key calls (including a stale token beside a valid key).
 */
export async function requireTenantOrToken(
  request: FastifyRequest,
  tokens: AccessTokens,
  tenantKey: string,
): Promise<string | null> {
  const claims = await accessClaims(request, tokens)
  if (claims) return claims.sub
  if (request.headers[TENANT_HEADER] === tenantKey) return null
  throw unauthorized('Valid access token required.')
}
