// W3C Trace Context for every request and every upstream call (docs/operations.md), whether spans are
// exported or not. Without an OTLP endpoint no SDK runs: the gateway takes part in the trace the
// way a transparent hop does, passing the client's `traceparent` on to the upstream unchanged (or,
// without one, a new trace's: its id made once per request, a parent id per upstream call), and logs
// its trace id. That costs a header read and a string per request; spans (otel.ts) cost more and are
// made only when exported.
// The header's format is small and fixed, so it is read here rather than with OpenTelemetry's
// packages: loading them took most of the time Fastify itself takes to load, on every start.
import { randomFillSync } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

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
  call(trace: RequestTrace | undefined, operation: string, method: string): CallTrace
  /** Sends what is still buffered; called when the app closes. */
  shutdown(): Promise<void>
}

/**
 * A trace we take part in without recording it. It keeps the client's parent id, if any, and makes
 * its upstream calls' `traceparent` only when they happen: a request without one (a cached catalog, a
 * stream after its snapshot) holds its trace id and nothing else.
 */
class PassedOnTrace implements RequestTrace {
  constructor(
    readonly traceId: string,
    /** The client's parent id and flags: passed on unchanged, as a transparent hop does. */
    readonly passedOn: { parentId: string; flags: string } | undefined,
  ) {}
}

/** One upstream call of a trace we do not record. */
class PassedOnCall implements CallTrace {
  constructor(readonly traceparent: string) {}
  attempted(): void {}
  end(): void {}
}

/**
 * `version-traceid-parentid-flags`, lower-case hex. Version ff is invalid, version 00 has exactly these
 * four fields (later versions may add more), and all-zero ids are invalid.
 */
const TRACEPARENT = /^([\da-f]{2})-(?!0{32})([\da-f]{32})-(?!0{16})([\da-f]{16})-([\da-f]{2})(-.*)?$/

function continued(header: string): PassedOnTrace | undefined {
  const m = TRACEPARENT.exec(header.trim())
  if (!m || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return undefined
  return new PassedOnTrace(m[2]!, { parentId: m[3]!, flags: m[4]! })
}

/** Trace context propagation alone, with no SDK: for a gateway that exports no spans. */
export function propagationOnly(): Tracing {
  // Random bytes drawn 4 KiB at a time: one system call per 256 trace ids (or 512 parent ids).
  const pool = Buffer.alloc(4096)
  let used = pool.length
  const randomHex = (bytes: number) => {
    if (used + bytes > pool.length) {
      randomFillSync(pool)
      used = 0
    }
    used += bytes
    return pool.toString('hex', used - bytes, used)
  }
  // Flags 00 on a trace we start: nobody records it, so the upstream need not either.
  const callOf = (trace: PassedOnTrace) =>
    new PassedOnCall(
      trace.passedOn
        ? `00-${trace.traceId}-${trace.passedOn.parentId}-${trace.passedOn.flags}`
        : `00-${trace.traceId}-${randomHex(8)}-00`,
    )
  return {
    begin(_method, headers) {
      const given = headers.traceparent
      return (typeof given === 'string' && continued(given)) || new PassedOnTrace(randomHex(16), undefined)
    },
    finish() {},
    call: (trace) =>
      callOf((trace as PassedOnTrace | undefined) ?? new PassedOnTrace(randomHex(16), undefined)),
    shutdown: async () => {},
  }
}
