// W3C Trace Context for every request and every upstream call (CONTRACT.md §9), whether spans are
// exported or not. Without an OTLP endpoint no SDK runs: the gateway takes part in the trace the
// way a transparent hop does, passing the client's `traceparent` on to the upstream unchanged (or,
// without one, a new trace's, made once per request), and logs its trace id. That costs a header
// read and a string per request; spans (otel.ts) cost more and are made only when exported.
import type { IncomingHttpHeaders } from 'node:http'
import { parseTraceParent } from '@opentelemetry/core'
import { RandomIdGenerator } from '@opentelemetry/sdk-trace'
import type { Operation } from '../upstream/classify.js'

/** The trace one request belongs to. */
export interface RequestTrace {
  readonly traceId: string
}

/** One upstream call (all its attempts) within a trace. */
export interface CallTrace {
  /** The `traceparent` header every attempt of the call sends. */
  readonly traceparent: string
  /** One attempt's outcome: the upstream's status when one came, and 'ok' or our error code. */
  attempted(status: number | undefined, outcome: string): void
  end(): void
}

/** What the request path and the upstream client ask of tracing. */
export interface Tracing {
  /** The trace of an incoming request: the client's `traceparent` continued, or a new trace. */
  begin(method: string, headers: IncomingHttpHeaders): RequestTrace
  /** The request has been answered. `route` is the route template, when one matched. */
  finish(
    trace: RequestTrace,
    route: string | undefined,
    status: number,
    problemCode: string | undefined,
  ): void
  /** An upstream call made for a request, or for none (a catalog reload, a stream subscription). */
  call(trace: RequestTrace | undefined, operation: Operation, method: string): CallTrace
  /** Sends what is still buffered; called when the app closes. */
  shutdown(): Promise<void>
}

/** A trace we take part in without recording it: it is its own upstream calls' trace context. */
class PassedOnTrace implements RequestTrace, CallTrace {
  constructor(
    readonly traceId: string,
    readonly traceparent: string,
  ) {}

  attempted(): void {}
  end(): void {}
}

/** Trace context propagation alone, with no SDK: for a gateway that exports no spans. */
export function propagationOnly(): Tracing {
  const ids = new RandomIdGenerator()
  const started = () => {
    const traceId = ids.generateTraceId()
    // Flags 00: nobody records this trace, so the upstream need not either.
    return new PassedOnTrace(traceId, `00-${traceId}-${ids.generateSpanId()}-00`)
  }
  return {
    begin(_method, headers) {
      const given = headers.traceparent
      const parent = typeof given === 'string' ? parseTraceParent(given) : null
      if (!parent) return started()
      const flags = parent.traceFlags.toString(16).padStart(2, '0')
      return new PassedOnTrace(parent.traceId, `00-${parent.traceId}-${parent.spanId}-${flags}`)
    },
    finish() {},
    call: (trace) => (trace as PassedOnTrace | undefined) ?? started(),
    shutdown: async () => {},
  }
}
