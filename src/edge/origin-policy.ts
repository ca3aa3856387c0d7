// Browser safety at the edge (docs/api.md, "Origins and CORS"), run before every other capability: a foreign Origin is
// refused on every route, unknown ones and health included, and logged with the variable that would
// allow it (a developer whose page fails to fetch finds why in the log); a state change that carries the session
// cookie must name an allowed Origin (browsers always send one on POST, so only a forged or
// non-browser request lacks it); allowed origins get CORS with credentials, preflights included.
// CORS is this policy's other half, so the one hook that judges the Origin also grants it: the
// headers for each allowed origin are built at start-up, and a request without Origin (most of the
// traffic: apps, servers) pays for nothing but `Vary`. (@fastify/cors ran a second hook that copied
// its options and joined its header lists on every request.)
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { problems } from '../problems.js'
import type { AllowedOrigins } from './allowed-origins.js'
import { cookiesOf } from './cookies.js'

export interface OriginPolicyOptions {
  origins: AllowedOrigins
  sessionCookieName: string
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const METHODS = 'GET, HEAD, POST'
/** How long browsers may cache a preflight, in seconds. */
const PREFLIGHT_MAX_AGE = 600

/** What a frontend may send and read across origins, as the header values that say so. */
const ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'idempotency-key',
  'x-request-id',
  'x-session-mode',
  'last-event-id',
  'if-none-match',
  // W3C Trace Context, sent by frontends instrumented with OpenTelemetry.
  'traceparent',
  'tracestate',
].join(', ')
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
].join(', ')

export const originPolicy = fp(
  async (app: FastifyInstance, opts: OriginPolicyOptions) => {
    // What an allowed origin is granted: on every answer, and on a preflight. Built at start-up for the
    // configured origins; a loopback development server's (outside production only) when it asks.
    const grantFor = (origin: string) => {
      const answer = {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
      }
      return {
        answer: { ...answer, 'access-control-expose-headers': EXPOSED_HEADERS },
        preflight: {
          ...answer,
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': String(PREFLIGHT_MAX_AGE),
        },
      }
    }
    const grants = new Map(opts.origins.listed.map((origin) => [origin, grantFor(origin)]))
    const refuse = (request: FastifyRequest, origin: string) => {
      request.log.warn(
        { origin },
        `Origin ${origin} refused: add it to ALLOWED_ORIGINS (comma-separated) to let its pages call the gateway`,
      )
      return problems.originNotAllowed()
    }

    /** A request without an Origin is refused when it changes state with the session cookie. */
    const refusedWithoutOrigin = (request: FastifyRequest): boolean =>
      !SAFE_METHODS.has(request.method) && cookiesOf(request)[opts.sessionCookieName] !== undefined

    app.addHook('onRequest', (request, reply, done) => {
      // Answers differ by Origin, so shared caches must key on it, whether or not one was sent.
      reply.header('vary', 'Origin')
      const origin = request.headers.origin
      if (origin === undefined) {
        return done(refusedWithoutOrigin(request) ? problems.cookieWithoutOrigin() : undefined)
      }
      const grant = grants.get(origin) ?? (opts.origins.allows(origin) ? grantFor(origin) : undefined)
      if (!grant) return done(refuse(request, origin))
      reply.headers(request.method === 'OPTIONS' ? grant.preflight : grant.answer)
      done()
    })
    // Preflights (and any OPTIONS) on every path: 204, with the grant the hook above added. Never
    // rate-limited: a browser sends one before its real request, at most every PREFLIGHT_MAX_AGE.
    const preflight = {
      hidden: 'CORS preflights, answered on every path; browsers send them on their own.',
      success: { 204: { description: 'The preflight is granted (the CORS headers say for what).' } },
      problems: ['ORIGIN_NOT_ALLOWED'],
    } as const
    app.options('*', { config: { group: false, answers: preflight } }, (_request, reply) => {
      reply.code(204).send()
    })
  },
  { name: 'origin-policy', dependencies: ['problem-handler', 'cookies'] },
)
