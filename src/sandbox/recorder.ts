// The log of requests received on spec routes, for tests that assert what a gateway actually
// sent upstream (headers it must add or strip, retries it must not make). It keeps the latest
// requests only, so a sandbox that serves a long session or a benchmark does not grow without end.
import type { FastifyRequest } from 'fastify'
import type { RouteKey } from './route-keys.js'

export interface RecordedRequest {
  method: string
  /** Path and query exactly as received. */
  url: string
  path: string
  /** The matched route, or null for a request no spec route matched (a 404). */
  route: RouteKey | null
  /** Lower-cased names, raw values. */
  headers: Record<string, string | string[] | undefined>
  /** The parsed JSON body; undefined when there was none or it did not parse. */
  body: unknown
  /** Sandbox clock, ms. */
  at: number
}

/** How many of the latest requests the log keeps by default. */
export const REQUEST_LOG_LIMIT = 10_000

export class RequestLog {
  readonly entries: RecordedRequest[] = []

  constructor(private readonly limit = REQUEST_LOG_LIMIT) {}

  record(request: FastifyRequest, route: RouteKey | null, at: number): RecordedRequest {
    const entry: RecordedRequest = {
      method: request.method,
      url: request.url,
      path: request.url.split('?')[0] ?? request.url,
      route,
      headers: { ...request.headers },
      body: undefined,
      at,
    }
    this.entries.push(entry)
    // Trimmed in steps of `limit`, in place: one splice per `limit` requests, not one per request.
    if (this.entries.length >= 2 * this.limit) this.entries.splice(0, this.entries.length - this.limit)
    return entry
  }

  /** Empties the log in place, so a reference to `entries` stays current. */
  clear(): void {
    this.entries.length = 0
  }

  to(route: RouteKey): RecordedRequest[] {
    return this.entries.filter((entry) => entry.route === route)
  }
}
