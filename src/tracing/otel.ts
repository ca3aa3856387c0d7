// Spans exported with OpenTelemetry's SDK and its OTLP/HTTP (JSON) exporter, when an endpoint is
// configured: a server span per request, continuing the client's `traceparent`, and a client span per
// upstream call (all its attempts), whose context is the `traceparent` the upstream receives.
// Contexts are passed by hand, not through the SDK's async-context manager: the request carries its
// span, so no async hook runs on the request path. Attribute names are OpenTelemetry's semantic
// conventions; `gateway.*` are ours.
import type { IncomingHttpHeaders } from 'node:http'
import {
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace'
import { z } from 'zod'
import type { CallTrace, RequestTrace, Tracing } from './trace-context.js'

/** TRACES export settings (docs/operations.md, "Traces"), read from the OTEL_* variables by config.ts. */
export interface TracingConfig {
  url: string
  headers: Record<string, string>
  serviceName: string
  resourceAttributes: Record<string, string>
  sampler: SamplerName
  samplerRatio: number
}
/** OTEL_TRACES_SAMPLER's values, as OpenTelemetry names them. */
export const samplerNames = z.enum([
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
])
export type SamplerName = z.infer<typeof samplerNames>

export interface ExportTuning {
  /** How long spans wait in the batch before they are sent (the SDK's default: 5 s). */
  scheduledDelayMs: number
}

function samplerOf(config: TracingConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio)
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return ratio
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio })
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
  }
}

class SpanTrace implements RequestTrace {
  readonly traceId: string
  /** The context the request's upstream calls are children of. */
  readonly context: Context

  constructor(
    readonly method: string,
    readonly span: Span,
    parent: Context,
  ) {
    this.traceId = span.spanContext().traceId
    this.context = trace.setSpan(parent, span)
  }
}

class CallSpan implements CallTrace {
  readonly traceparent: string
  private attempts = 0
  private status: number | undefined
  private outcome = 'ok'

  constructor(
    private readonly span: Span,
    propagator: W3CTraceContextPropagator,
  ) {
    const carrier: Record<string, string> = {}
    propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter)
    this.traceparent = carrier.traceparent!
  }

  attempted(status: number | undefined, outcome: string): void {
    this.attempts += 1
    this.status = status
    this.outcome = outcome
  }

  /** The call's outcome is its last attempt's. */
  end(): void {
    const { span } = this
    span.setAttribute('gateway.upstream.attempts', this.attempts)
    if (this.status !== undefined) span.setAttribute('http.response.status_code', this.status)
    if (this.outcome !== 'ok') {
      span.setAttribute('gateway.problem.code', this.outcome)
      span.setStatus({ code: SpanStatusCode.ERROR })
    }
    span.end()
  }
}

/** Starts the SDK's tracer provider, exporting to `config.url`. */
export function exportingTracing(
  config: TracingConfig,
  upstreamHost: string,
  tuning: Partial<ExportTuning> = {},
): Tracing {
  const provider = new TracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...config.resourceAttributes, 'service.name': config.serviceName }),
    ),
    sampler: samplerOf(config),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: config.url, headers: config.headers }),
        scheduledDelayMillis: tuning.scheduledDelayMs,
      }),
    ],
  })
  const tracer: Tracer = provider.getTracer('swap-gateway')
  const propagator = new W3CTraceContextPropagator()
  return {
    begin(method: string, headers: IncomingHttpHeaders): RequestTrace {
      const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter)
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
        parent,
      )
      return new SpanTrace(method, span, parent)
    },
    finish(requestTrace, route, status, problemCode) {
      const { span, method } = requestTrace as SpanTrace
      if (route !== undefined) {
        span.updateName(`${method} ${route}`)
        span.setAttribute('http.route', route)
      }
      span.setAttribute('http.response.status_code', status)
      if (problemCode) span.setAttribute('gateway.problem.code', problemCode)
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
    },
    call(requestTrace: RequestTrace | undefined, operation: string, method: string): CallTrace {
      const parent = (requestTrace as SpanTrace | undefined)?.context ?? ROOT_CONTEXT
      const span = tracer.startSpan(
        `${method} ${operation}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': method,
            'server.address': upstreamHost,
            'gateway.upstream.operation': operation,
          },
        },
        parent,
      )
      return new CallSpan(span, propagator)
    },
    shutdown: () => provider.shutdown(),
  }
}
