// What a route answers, declared where the route is defined (`config.answers`): its success statuses
// with their bodies and headers, the problem codes it can send, and whether it reads a session. The
// OpenAPI document, the reference page and the typed client are built from these declarations, and
// the app refuses to start with a route that has none (src/docs/plugin.ts). They are read at
// start-up only: success bodies are never serialised or validated against them.
import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { z } from 'zod'
import type { ErrorCode } from '../errors.js'

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
 */
export const declaredRoutes = fp(
  async (app: FastifyInstance) => {
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
  { name: 'declared-routes' },
)
