// The session's own routes: who is signed in, the upstream's /auth/me, renewal, and sign-out.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { BODY_FAILURES, UPSTREAM_FAILURES } from '../edge/route-answers.js'
import { GatewayError } from '../errors.js'
import { meSchema } from '../upstream/schemas.js'
import { sessionAnswer, signInResult } from './bodies.js'
import { sessionModeHeaders } from './schemas.js'
import type { Sessions } from './sessions.js'
import type { SignIn } from './sign-in.js'
import { problems } from '../problems.js'

export interface SessionRoutesOptions {
  signIn: SignIn
  sessions: Sessions
}

export async function sessionRoutes(app: FastifyInstance, opts: SessionRoutesOptions) {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  async function activeSession(request: FastifyRequest) {
    const read = await opts.sessions.read(request)
    if (read.state === 'none') throw problems.signInRequired()
    if (read.state === 'lapsed') throw await opts.sessions.expired(request)
    return read
  }

  routes.get(
    '/auth/session',
    {
      schema: {
        summary: 'Who is signed in (never 401)',
        description:
          "Who is signed in on this request's session cookie or Bearer token. Never 401, so a page can ask on load.",
        tags: ['auth'],
        operationId: 'getSession',
      },
      config: {
        group: 'global',
        answers: {
          success: {
            200: { description: 'The session as the gateway sees it; never 401.', body: sessionAnswer },
          },
          problems: [],
          session: 'optional',
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const read = await opts.sessions.read(request)
      if (read.state === 'none') return { signedIn: false }
      const { session } = read
      if (read.state === 'lapsed') {
        return { signedIn: false, expired: true, address: session.address, chainId: session.chainId }
      }
      return opts.sessions.view(session)
    },
  )

  routes.get(
    '/auth/me',
    {
      schema: {
        summary: 'The signed-in user, from the swap service',
        description:
          "The signed-in user as the swap service describes it (its `id` is `userId` on the user's orders).",
        tags: ['auth'],
        operationId: 'getMe',
      },
      config: {
        group: 'global',
        answers: {
          success: {
            200: { description: 'The signed-in user, as the upstream describes it.', body: meSchema },
          },
          problems: ['AUTH_REQUIRED', 'SESSION_EXPIRED', ...UPSTREAM_FAILURES],
          session: 'required',
        },
      },
    },
    async (request, reply) => {
      const { session } = await activeSession(request)
      try {
        const me = await app.upstream.call(request.upstreamContext(), {
          operation: 'me',
          path: '/auth/me',
          accessToken: session.accessToken,
          schema: meSchema,
        })
        return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(me.raw)
      } catch (err) {
        if (err instanceof GatewayError && err.code === 'SESSION_EXPIRED')
          throw await opts.sessions.expired(request)
        throw err
      }
    },
  )

  routes.post(
    '/auth/refresh',
    {
      schema: {
        headers: sessionModeHeaders,
        summary: 'Renew the session, or get a challenge',
        description:
          "Renews the session's access token; when it cannot, the problem carries a fresh challenge for the wallet to sign.",
        tags: ['auth'],
        operationId: 'refreshSession',
      },
      config: {
        group: 'auth',
        answers: {
          success: {
            200: {
              description: 'The session was renewed.',
              body: signInResult,
              headers: { 'Set-Cookie': 'The renewed session cookie.' },
            },
          },
          problems: [...BODY_FAILURES, 'AUTH_REQUIRED', 'SESSION_EXPIRED', ...UPSTREAM_FAILURES],
          session: 'required',
        },
      },
    },
    async (request, reply) => {
      const read = await opts.sessions.read(request)
      if (read.state === 'none') throw problems.signInRequired()
      const renewed = await opts.signIn.refresh(request.upstreamContext(), read.session)
      if (!renewed) throw await opts.sessions.expired(request, problems.sessionNotRenewed)
      const sessionToken = await opts.sessions.issue(reply, renewed)
      const view = opts.sessions.view(renewed)
      const tokenMode = read.source === 'bearer' || request.headers['x-session-mode'] === 'token'
      return reply.header('cache-control', 'no-store').send(tokenMode ? { ...view, sessionToken } : view)
    },
  )

  routes.post(
    '/auth/logout',
    {
      schema: {
        summary: 'Sign out: ends the session and every copy of it',
        description:
          'Ends the session and every copy of it (the cookie and the Bearer token alike), on every instance.',
        tags: ['auth'],
        operationId: 'logout',
      },
      config: {
        group: 'global',
        answers: {
          success: {
            204: {
              description: 'The session is cleared and revoked.',
              headers: { 'Set-Cookie': 'Clears the session cookie.' },
            },
          },
          problems: [...BODY_FAILURES],
          session: 'optional',
        },
      },
    },
    async (request, reply) => {
      await opts.sessions.end(request, reply)
      return reply.code(204).header('cache-control', 'no-store').send()
    },
  )
}
