// Every public route names its group (docs/operations.md): rate limits count per group and client.
// The edge reads a request's route config several times (limits, headers, metrics, the log line);
// Fastify builds a new options object on every `routeOptions` read, so the route's own config object
// (shared by all its requests, and holding its url) is looked up once per request.
import type { FastifyRequest } from 'fastify'
import type { RateLimitGroup } from './rate-limit-rules.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit group; routes without one count in 'global'. Health and metrics set `false`. */
    group?: RateLimitGroup | false
  }
  interface FastifyRequest {
    /** This request's route config, once looked up (see routeOf). */
    routeConfig: RouteConfig | undefined
  }
}

type RouteConfig = FastifyRequest['routeOptions']['config']

/** The request's route config: its group, its own settings, and its url. */
export function routeOf(request: FastifyRequest): RouteConfig {
  request.routeConfig ??= request.routeOptions.config
  return request.routeConfig
}

/** The route template (`/api/v1/orders/:uuid`); undefined when no route matched. */
export const routeUrlOf = (request: FastifyRequest): string | undefined => routeOf(request).url
