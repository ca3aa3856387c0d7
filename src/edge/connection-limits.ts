// Slow clients and idle connections (docs/api.md, "Origins and CORS"): how long a request head and a whole request may
// take to arrive, and how long an idle keep-alive connection is kept. Node enforces the first two
// only; its answer (408) is written by edge/parser-errors.ts.

export interface ConnectionTimes {
  /** HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS. */
  headersTimeoutMs: number
  requestTimeoutMs: number
  keepAliveTimeoutMs: number
}

/**
 * Node checks those deadlines on a sweep (every 30 s by default, which let slow clients hold a
 * connection 30 s past them); a sweep a quarter of the shorter deadline, at most a second apart,
 * closes a slow client within a second of its deadline. The sweep walks only connections still
 * sending a request, so open streams cost it nothing.
 */
const sweepEvery = (config: ConnectionTimes) =>
  Math.min(1_000, Math.max(10, Math.floor(Math.min(config.headersTimeoutMs, config.requestTimeoutMs) / 4)))

/** Fastify options. Its `requestTimeout` covers receiving the request only: streams are not cut. */
export const connectionLimits = (config: ConnectionTimes) => ({
  requestTimeout: config.requestTimeoutMs,
  keepAliveTimeout: config.keepAliveTimeoutMs,
  http: {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    connectionsCheckingInterval: sweepEvery(config),
  },
})
