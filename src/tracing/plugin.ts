// Tracing as `app.tracing`: spans exported through OpenTelemetry when an OTLP endpoint is configured,
// trace context propagation alone otherwise. The request path (edge/logging.ts) begins and finishes
// each request's trace; the upstream client sends each call's `traceparent`. The SDK is loaded only
// when spans are exported, and flushed when the app closes (after everything else has closed).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { ExportTuning, TracingConfig } from './otel.js'
import { propagationOnly, type RequestTrace, type Tracing } from './trace-context.js'

export type { ExportTuning } from './otel.js'

declare module 'fastify' {
  interface FastifyInstance {
    tracing: Tracing
  }
  interface FastifyRequest {
    /** This request's trace, begun when it arrived. */
    trace: RequestTrace | null
  }
}

export interface TracingPluginOptions {
  /** Where spans go; undefined: none are made. */
  config: TracingConfig | undefined
  /** The upstream's host, named on upstream call spans. */
  upstreamHost: string
  tuning?: Partial<ExportTuning>
}

export const tracingPlugin = fp(
  async (app: FastifyInstance, opts: TracingPluginOptions) => {
    const tracing = opts.config
      ? (await import('./otel.js')).exportingTracing(opts.config, opts.upstreamHost, opts.tuning)
      : propagationOnly()
    app.decorate('tracing', tracing)
    app.decorateRequest('trace', null)
    app.addHook('onClose', () => tracing.shutdown())
  },
  { name: 'tracing' },
)
