// The SIWX routes: challenge, verify, refresh and /auth/me. Refresh fails the way the spec says
// it does today unless a test switches it on through the control API.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ACCESS_TOKEN_TTL_S } from '../auth/access-tokens.js'
import { requireAccessToken, TENANT_HEADER } from '../auth/credentials.js'
import { REFRESH_TOKEN_TTL_S } from '../auth/refresh-tokens.js'
import { checkSignIn } from '../auth/siwx.js'
import type { SandboxContext } from '../context.js'
import { genericServerError, unauthorized } from '../envelopes.js'

/** The refresh cookie's path assumes a base URL ending in /api, as the spec documents. */
const REFRESH_COOKIE_PATH = '/api/auth'

function issueSession(
  ctx: SandboxContext,
  reply: FastifyReply,
  userId: string,
  address: string,
  chainId: string,
) {
  const accessToken = ctx.accessTokens.issue(userId, address, chainId)
  const refreshToken = ctx.refreshTokens.issue(userId, address, chainId)
  reply.setCookie('access_token', accessToken, {
    httpOnly: true,
    path: '/',
    sameSite: 'lax',
    maxAge: ACCESS_TOKEN_TTL_S,
  })
  reply.setCookie('refresh_token', ctx.refreshTokens.cookieValue(refreshToken), {
    // URL-encoded like an Express signed cookie (`s%3A…`), which is what a gateway must echo back.
    encode: encodeURIComponent,
    httpOnly: true,
    path: REFRESH_COOKIE_PATH,
    sameSite: 'lax',
    maxAge: REFRESH_TOKEN_TTL_S,
  })
  return { accessToken, refreshToken }
}

export function authRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/auth/siwx/challenge', async () => ({ nonce: ctx.nonces.issue() }))

  app.post('/auth/siwx/verify', async (request, reply) => {
    const tenantKey = request.headers[TENANT_HEADER]
    if (tenantKey === undefined) throw genericServerError()
    if (tenantKey !== ctx.tenantKey) throw unauthorized('x-tenant-api-key not present')
    const signIn = await checkSignIn(request.body, ctx.nonces)
    ctx.nonces.consume(signIn.nonce)
    const user = ctx.users.forAddress(signIn.data.accountAddress)
    return reply.code(201).send(issueSession(ctx, reply, user.id, user.address, signIn.data.chainId))
  })

  app.post('/auth/refresh', async (request, reply) => {
    const cookie = request.cookies.refresh_token
    const token = cookie === undefined ? undefined : ctx.refreshTokens.unsign(cookie)
    if (token === undefined) throw unauthorized('Refresh token not found.')
    if (!ctx.switches.refreshWorks) throw unauthorized('Invalid or expired refresh token.')
    const grant = ctx.refreshTokens.redeem(token)
    if (!grant) throw unauthorized('Invalid or expired refresh token.')
    return reply.code(200).send(issueSession(ctx, reply, grant.userId, grant.address, grant.chainId))
  })

  app.get('/auth/me', async (request) => {
    const claims = await requireAccessToken(request, ctx.accessTokens)
    const user = ctx.users.forAddress(claims.address)
    return { id: user.id, address: user.address, chainId: claims.chainId, createdAt: user.createdAt }
  })
}
