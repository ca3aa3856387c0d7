// What operators read, registered before any capability so it sees every route: metrics (with their
// internal port) and the OpenAPI collector. Health and the docs routes are registered after the
// capabilities, by app.ts.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { openapiCollector } from './docs/plugin.js'
import { type MetricsSources, metricsPlugin } from './metrics.js'
import { metricsServer } from './metrics-server.js'

export interface OpsOptions {
  apiPrefix: string
  apiVersion: string
  /** The origin browsers use; the OpenAPI document's server. */
  publicOrigin: string
  /** Where /metrics listens; undefined: nowhere. */
  metricsPort: number | undefined
  metricsHost: string
  sources: MetricsSources
}

export const opsEdge = fp(
  async (app: FastifyInstance, opts: OpsOptions) => {
    const redis = app.redis
    await app.register(metricsPlugin, {
      sources: { ...opts.sources, ...(redis ? { redisUp: () => redis.up } : {}) },
    })
    await app.register(metricsServer, { port: opts.metricsPort, host: opts.metricsHost })
    await app.register(openapiCollector, {
      apiPrefix: opts.apiPrefix,
      version: opts.apiVersion,
      publicOrigin: opts.publicOrigin,
    })
  },
  { name: 'ops' },
)
