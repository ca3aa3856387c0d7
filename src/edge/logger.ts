// The gateway's pino logger: its level, the redaction of secrets, and where its lines go.
import { hostname } from 'node:os'
import pino, { type DestinationStream, type Logger } from 'pino'
import { LogBatches } from './log-batches.js'
import { RequestLine } from './request-line.js'

// Exact paths only: wildcard paths make pino inspect every log call, which cost more than the rest
// of the per-request line. Tokens, bodies and signatures are never passed to the logger at all (the
// auth and core tests read every log line to prove it); these paths guard headers, should a request
// or an upstream call ever be logged whole.
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-tenant-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-tenant-api-key"]',
]

export interface GatewayLogger {
  logger: Logger
  /** Writes the request line straight to the logger's destination (edge/request-line.ts). */
  requestLine: RequestLine
  /** Writes out what the destination still holds and stops its timer; buildApp calls it on close. */
  close(): void
}

/**
 * Lines go to `stream` when one is given (tests read them there), else in batches to `to`: a file
 * descriptor (standard output by default) or a file's path.
 */
export function createLogger(
  level: string,
  stream?: DestinationStream,
  to: number | string = 1,
): GatewayLogger {
  const destination = stream ?? new LogBatches(to)
  // pino's default base, named here because the request line writes it too.
  const base = { pid: process.pid, hostname: hostname() }
  const logger = pino({ level, base, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination)
  return {
    logger,
    requestLine: new RequestLine(logger, destination, base),
    close: () => {
      if (destination instanceof LogBatches) destination.close()
    },
  }
}
