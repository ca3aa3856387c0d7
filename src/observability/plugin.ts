// What every other plugin reports to, registered first: the metrics registry, readiness's members,
// and /metrics on its internal port.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { metricsPlugin } from './metrics.js'
import { metricsServer } from './metrics-server.js'
import { readinessPlugin } from './readiness.js'

export interface ObservabilityOptions {
  /** METRICS_PORT: where /metrics listens; undefined: nowhere, 0: an ephemeral port. */
  port: number | undefined
  host: string
  /** Where problem `type` URIs point, for the internal port's problem documents. */
  errorTypeBase: string
}

export const observability = fp(
  async (app: FastifyInstance, opts: ObservabilityOptions) => {
    await app.register(metricsPlugin)
    await app.register(readinessPlugin)
    await app.register(metricsServer, opts)
  },
  { name: 'observability' },
)
