// Browser safety at the edge (CONTRACT.md §8), run before every other capability: a foreign Origin is
// refused on every route, unknown ones and health included; a state change that carries the session
// cookie must name an allowed Origin (browsers always send one on POST, so only a forged or
// non-browser request lacks it); allowed origins get CORS with credentials, preflights included.
import cookie from '@fastify/cookie'
import cors from '@fastify/cors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayError } from '../errors.js'

export interface OriginPolicyOptions {
  publicOrigin: string
  allowedOrigins: readonly string[]
  sessionCookieName: string
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** What a frontend may send and read across origins. */
const ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'idempotency-key',
  'x-request-id',
  'x-session-mode',
  'last-event-id',
]
const EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'idempotent-replayed',
  'etag',
  'x-cache-status',
  'ratelimit',
  'ratelimit-policy',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]

export const originPolicy = fp(
  async (app: FastifyInstance, opts: OriginPolicyOptions) => {
    // Origins as browsers serialise them (config normalises ours the same way): compared exactly.
    const allowed = [...new Set([opts.publicOrigin, ...opts.allowedOrigins])]
    const allowedSet = new Set(allowed)

    const refusal = (request: FastifyRequest): string | undefined => {
      const origin = request.headers.origin
      if (origin !== undefined)
        return allowedSet.has(origin) ? undefined : 'Requests from this origin are not allowed.'
      if (SAFE_METHODS.has(request.method) || request.cookies[opts.sessionCookieName] === undefined)
        return undefined
      return 'A request that changes state with the session cookie must come from an allowed Origin; other clients use the Bearer session token.'
    }

    await app.register(cookie)
    app.addHook('onRequest', (request, _reply, done) => {
      const why = refusal(request)
      done(why ? new GatewayError('ORIGIN_NOT_ALLOWED', why) : undefined)
    })
    await app.register(cors, {
      origin: allowed,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      // An OPTIONS request without Origin is not a preflight: answered 204 rather than a bare-text 400.
      strictPreflight: false,
    })
  },
  { name: 'origin-policy', dependencies: ['problems'] },
)
