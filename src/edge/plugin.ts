// The edge: what every request passes through before a capability sees it, in the order it runs:
// ids and the log line, problem documents, the shutdown's answers, security headers, cookies, the
// request target's length, the origin policy and CORS, rate limits, the request metrics, and the
// lingering close of answers sent while a body is still arriving. The
// server options that only Fastify's constructor takes (router and parser errors, connection times,
// proxies) are in server-options.ts.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AllowedOrigins } from './allowed-origins.js'
import { clientIp } from './client-ip.js'
import { cookieSupport, sessionCookieFor } from './cookies.js'
import { draining } from './draining.js'
import { lingeringClose } from './lingering-close.js'
import { requestLogging } from './logging.js'
import { originPolicy } from './origin-policy.js'
import { problemHandler } from './problem-handler.js'
import type { RateLimitGroup, RateLimitRule } from './rate-limit-rules.js'
import { rateLimits } from './rate-limits.js'
import type { RequestLine } from './request-line.js'
import { requestMetrics } from './request-metrics.js'
import { declaredRoutes } from './route-answers.js'
import { securityHeaders } from './security-headers.js'
import { requestTargetLimit } from './url-limits.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The origins that may call the gateway (PUBLIC_ORIGIN, ALLOWED_ORIGINS): sign-in names them too. */
    origins: AllowedOrigins
  }
}

export interface EdgeOptions {
  apiPrefix: string
  publicOrigin: string
  /** CLIENT_IP_HEADER. */
  clientIpHeader: string | undefined
  allowedOrigins: readonly string[]
  loopbackDevServers: boolean
  /** RATE_LIMITS over the defaults. */
  rateLimits: Record<RateLimitGroup, RateLimitRule>
  /** Writes each request's line (edge/request-line.ts). */
  requestLine: RequestLine
}

export const edge = fp(
  async (app: FastifyInstance, opts: EdgeOptions) => {
    const origins = new AllowedOrigins(opts)
    app.decorate('origins', origins)
    // First, so that it sees every route: each must declare what it answers.
    await app.register(declaredRoutes)
    await app.register(clientIp, { header: opts.clientIpHeader })
    await app.register(requestLogging, { requestLine: opts.requestLine })
    await app.register(problemHandler, opts)
    await app.register(draining)
    await app.register(securityHeaders, { https: opts.publicOrigin.startsWith('https:') })
    await app.register(cookieSupport)
    await app.register(requestTargetLimit)
    // Right after the security headers (so a refusal carries them too) and before everything else.
    await app.register(originPolicy, { origins, sessionCookieName: sessionCookieFor(opts.publicOrigin).name })
    await app.register(rateLimits, { limits: opts.rateLimits })
    await app.register(requestMetrics)
    // Last: it takes each answer's final bytes, those the hooks before it made.
    await app.register(lingeringClose)
  },
  { name: 'edge', dependencies: ['observability', 'tracing', 'redis'] },
)
