// Security headers on every response. The API serves JSON only, so its policy forbids everything a
// document could load; Referrer-Policy no-referrer keeps order uuids (bearer capabilities) from leaking.
// helmet decides the headers; we ask it once per policy at start-up instead of on every request.
// JSON answers skip helmet's headers that only a document (an HTML page) acts on: each header costs
// every response its bytes and Node's validation, and these would protect nothing there.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'
import { routeOf } from './route-group.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's own Content-Security-Policy directives (the HTML docs pages), replacing the API's. */
    cspDirectives?: Record<string, string[]>
    /** The headers computed from `cspDirectives` when the route is added. */
    securityHeaderSet?: Record<string, string>
  }
  interface FastifyInstance {
    /** The JSON answers' headers, for the answers no route gives (edge/router-errors.ts, edge/parser-errors.ts). */
    apiSecurityHeaders: Record<string, string>
  }
}

type HeaderSet = Record<string, string>

/** Runs helmet's middleware against a stand-in response and keeps what it set. */
export function headersOf(options: HelmetOptions): HeaderSet {
  const headers: HeaderSet = {}
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()]
    },
  }
  helmet(options)({} as never, res as never, () => {})
  return headers
}

const policy = (directives: Record<string, string[]>, document: boolean, https: boolean): HelmetOptions => ({
  contentSecurityPolicy: { useDefaults: false, directives },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  crossOriginEmbedderPolicy: false,
  // Acted on for documents only (or by plug-ins and IE8).
  crossOriginOpenerPolicy: document,
  originAgentCluster: document,
  xDnsPrefetchControl: document,
  xDownloadOptions: document,
  xPermittedCrossDomainPolicies: document,
  xXssProtection: document,
})

/**
 * The headers of an HTML page with its own policy, for a route whose `cspDirectives` are known only
 * after this plugin's onRoute hook ran (a page a plugin registers): set as its `securityHeaderSet`.
 */
export const pageHeaders = (directives: Record<string, string[]>, https: boolean) =>
  headersOf(policy(directives, true, https))

export const securityHeaders = fp(
  async (app: FastifyInstance, opts: { https: boolean }) => {
    const apiHeaders = headersOf(
      policy({ defaultSrc: ["'none'"], frameAncestors: ["'none'"] }, false, opts.https),
    )
    app.decorate('apiSecurityHeaders', apiHeaders)
    app.addHook('onRoute', (route) => {
      const own = route.config?.cspDirectives
      if (own && route.config) route.config.securityHeaderSet = pageHeaders(own, opts.https)
    })
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(routeOf(request).securityHeaderSet ?? apiHeaders)
      done()
    })
  },
  { name: 'security-headers' },
)
