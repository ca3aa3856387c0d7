// What operators need at the edge, registered before any capability so it sees every route: the
// shared Redis (when configured), rate limits, metrics and their internal port, and the OpenAPI
// collector. The docs routes and readiness are registered by app.ts after the capabilities.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import { openapiCollector } from './docs/plugin.js'
import { type MetricsSources, metricsPlugin } from './metrics.js'
import { metricsServer } from './metrics-server.js'
import { type RateLimitOptions, rateLimits } from './rate-limits.js'
import { redisPlugin } from './redis.js'

export interface OpsOptions {
  config: Config
  /** Where /metrics listens; undefined: nowhere. */
  metricsPort: number | undefined
  apiVersion: string
  sources: MetricsSources
  clock: Clock
  userOf: RateLimitOptions['userOf']
}

export const opsEdge = fp(
  async (app: FastifyInstance, opts: OpsOptions) => {
    const { config } = opts
    await app.register(redisPlugin, { url: config.redisUrl })
    const redis = app.redis
    await app.register(rateLimits, {
      limits: config.rateLimits,
      clientIpHeader: config.clientIpHeader,
      clock: opts.clock,
      userOf: opts.userOf,
      redis: redis?.client,
    })
    await app.register(metricsPlugin, {
      sources: { ...opts.sources, ...(redis ? { redisUp: () => redis.up } : {}) },
    })
    await app.register(metricsServer, { port: opts.metricsPort, host: config.host })
    await app.register(openapiCollector, { apiPrefix: config.apiPrefix, version: opts.apiVersion })
  },
  { name: 'ops' },
)
