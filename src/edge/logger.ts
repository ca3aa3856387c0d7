// The gateway's pino logger: its level, the redaction of secrets, and where its lines go.
import pino, { type DestinationStream, type Logger } from 'pino'

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
  /** Writes out what the destination still holds; buildApp calls it when the app closes. */
  flush(): void
}

/**
 * Standard output through pino's own asynchronous destination: a line is handed to the OS at once
 * when no write is in flight, and lines logged meanwhile go out together with the next write.
 */
export function createLogger(level: string, stream?: DestinationStream): GatewayLogger {
  const own = stream ? undefined : pino.destination({ dest: 1, sync: false })
  const logger = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream ?? own)
  return { logger, flush: () => own?.flushSync() }
}
