// What a route answers, declared where the route is defined (`config.answers`): its success statuses
// with their bodies and headers, the problem codes it can send, and whether it reads a session. The
// OpenAPI document, the reference page and the typed client are built from these declarations, and
// the app refuses to start with a route that has none. Success bodies are never serialised or
// validated against them; a problem sent with a code its route does not declare is logged and
// counted (the document is wrong about that route), which fails the test that sent it.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { z } from 'zod'
import type { ErrorCode } from '../errors.js'
import { routeOf } from './route-group.js'

export interface SuccessAnswer {
  description: string
  /** Absent for bodiless answers (204, 304). */
  body?: z.ZodType
  /** `application/json` unless said otherwise. */
  contentType?: string
  /** Response headers worth a client's attention, with what they mean. */
  headers?: Record<string, string>
  /** Server-sent events: each event name with the schema of its `data`. */
  events?: Record<string, z.ZodType>
}

export interface RouteAnswers {
  success: Record<number, SuccessAnswer>
  /** The problem codes this route can answer, beyond those every public route can (origin, limits...). */
  problems: readonly ErrorCode[]
  /** How the route uses a session (the cookie or the Bearer session token); absent: not at all. */
  session?: 'required' | 'optional'
  /** Why the route is left out of the OpenAPI document (a page's assets, a development aid). */
  hidden?: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route answers: every route declares it. */
    answers?: RouteAnswers
  }
  interface FastifyInstance {
    declaredAnswers: DeclaredAnswers
  }
}

export interface DeclaredAnswers {
  /** Told of every problem sent: one whose route does not declare its code is logged and counted. */
  problemSent(request: FastifyRequest, code: ErrorCode): void
}

/**
 * Problems any route can answer, whatever it declares: the origin refusal (before anything else), a
 * URL over the limit, the parser's answers to a request too slow or with headers too large, a fault,
 * and a gateway shutting down. RATE_LIMITED is added on rate-limited routes.
 */
const COMMON_PROBLEMS: readonly ErrorCode[] = [
  'ORIGIN_NOT_ALLOWED',
  'URI_TOO_LONG',
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
]
/** A path parameter's malformed percent-encoding (or its length: URI_TOO_LONG, common anyway). */
const PATH_PARAMETER_PROBLEMS: readonly ErrorCode[] = ['VALIDATION_FAILED']

/** Every code a route can answer: its own, those of every route, and those its path and limit add. */
export function answerableCodes(answers: RouteAnswers, url: string, rateLimited: boolean): ErrorCode[] {
  return [
    ...answers.problems,
    ...COMMON_PROBLEMS,
    ...(url.includes(':') ? PATH_PARAMETER_PROBLEMS : []),
    ...(rateLimited ? (['RATE_LIMITED'] as const) : []),
  ]
}

/** A failure of the upstream on a call that carries no tenant key. */
export const UPSTREAM_FAILURES: readonly ErrorCode[] = [
  'UPSTREAM_ERROR',
  'UPSTREAM_BAD_RESPONSE',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
]
/** A failure of the upstream on a call made with the tenant key, which it may refuse. */
export const TENANT_FAILURES: readonly ErrorCode[] = [...UPSTREAM_FAILURES, 'UPSTREAM_AUTH_FAILED']
/** A JSON body that cannot be read. */
export const BODY_FAILURES: readonly ErrorCode[] = [
  'VALIDATION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
]

/**
 * Refuses to start an app with a route that declares no answers, wherever it was registered: the
 * document cannot describe it. Registered first; checked when all routes are in, since a plugin's
 * own routes (the reference page's assets) get theirs from a hook of the scope that registers it.
 * Then holds each route to its declaration whenever it sends a problem (the error handler tells it),
 * so the check costs nothing on the answers that are not problems.
 */
export const declaredRoutes = fp(
  async (app: FastifyInstance) => {
    // Each route's codes, made at its first problem: keyed by the route's own config object.
    const codesOf = new WeakMap<object, ReadonlySet<ErrorCode>>()
    const undeclared = app.metrics.counter({
      name: 'gateway_http_undeclared_problems_total',
      help: 'Problem documents sent with a code their route does not declare (each also an error log line)',
    })
    app.decorate('declaredAnswers', {
      problemSent(request, code) {
        const route = routeOf(request)
        // The not-found answer and the router's own refusals come from no route.
        if (!route.answers || !route.url) return
        let codes = codesOf.get(route)
        if (!codes) {
          codes = new Set(answerableCodes(route.answers, route.url, route.group !== false))
          codesOf.set(route, codes)
        }
        if (codes.has(code)) return
        undeclared.inc()
        request.log.error({ route: route.url, method: request.method, code }, 'undeclared problem code')
      },
    } satisfies DeclaredAnswers)
    const routes: RouteOptions[] = []
    app.addHook('onRoute', (route) => {
      routes.push(route)
    })
    app.addHook('onReady', async () => {
      const undeclared = routes.filter((r) => !r.config?.answers).map((r) => `${String(r.method)} ${r.url}`)
      if (undeclared.length > 0) {
        throw new Error(
          `Routes without config.answers (src/edge/route-answers.ts): ${undeclared.join(', ')}. Declare what each answers.`,
        )
      }
    })
  },
  { name: 'declared-routes', dependencies: ['metrics'] },
)
