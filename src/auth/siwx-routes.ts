// GET /auth/siwx/challenge and POST /auth/siwx/verify: one wallet signature becomes a sealed session.
// The upstream's tokens stay inside the seal; the client sees who is signed in and until when.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { BODY_FAILURES, TENANT_FAILURES, UPSTREAM_FAILURES } from '../edge/route-answers.js'
import { challengeAnswer } from '../edge/problem-schema.js'
import { signInResult } from './bodies.js'
import type { Challenges } from './challenge.js'
import { challengeQuery, sessionModeHeaders, verifyBody } from './schemas.js'
import type { Sessions } from './sessions.js'
import type { SignIn } from './sign-in.js'

export interface SiwxRoutesOptions {
  challenges: Challenges
  signIn: SignIn
  sessions: Sessions
}

export async function siwxRoutes(app: FastifyInstance, opts: SiwxRoutesOptions) {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get(
    '/auth/siwx/challenge',
    {
      schema: {
        querystring: challengeQuery,
        summary: 'A sign-in nonce, and a message to sign',
        description:
          'A single-use nonce; with `address` and `chainId`, also the EIP-4361 message to sign, naming the page that asks.',
        tags: ['auth'],
        operationId: 'getChallenge',
      },
      config: {
        group: 'auth',
        answers: {
          success: {
            200: {
              description:
                'A single-use nonce; with `address` and `chainId`, also the EIP-4361 message to sign.',
              body: challengeAnswer,
            },
          },
          problems: ['VALIDATION_FAILED', ...UPSTREAM_FAILURES],
        },
      },
    },
    async (request, reply) => {
      const { address, chainId } = request.query
      const wallet = address !== undefined && chainId !== undefined ? { address, chainId } : undefined
      const { upstreamBody, challenge } = await opts.challenges.issue(
        request.upstreamContext(),
        wallet,
        request,
      )
      return reply.header('cache-control', 'no-store').send({ ...upstreamBody, ...challenge })
    },
  )

  routes.post(
    '/auth/siwx/verify',
    {
      schema: {
        body: verifyBody,
        headers: sessionModeHeaders,
        summary: 'Exchange a wallet signature for a session',
        description:
          'Checks the signed sign-in message and opens a session: the session cookie, or with `X-Session-Mode: token` a Bearer `sessionToken` in the body.',
        tags: ['auth'],
        operationId: 'verifySignIn',
      },
      config: {
        group: 'auth',
        answers: {
          success: {
            201: {
              description:
                'Signed in: the session cookie is set (and `sessionToken` given with `X-Session-Mode: token`).',
              body: signInResult,
              headers: { 'Set-Cookie': 'The sealed session cookie (HttpOnly, SameSite=Lax).' },
            },
          },
          problems: [
            ...BODY_FAILURES,
            'NONCE_MISSING',
            'NONCE_INVALID',
            'SIGNATURE_INVALID',
            ...TENANT_FAILURES,
          ],
        },
      },
    },
    async (request, reply) => {
      const session = await opts.signIn.verify(request.upstreamContext(), request.body, request)
      const sessionToken = await opts.sessions.issue(reply, session)
      request.log.info({ userId: session.userId }, 'signed in')
      const view = opts.sessions.view(session)
      const tokenMode = request.headers['x-session-mode'] === 'token'
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(tokenMode ? { ...view, sessionToken } : view)
    },
  )
}
