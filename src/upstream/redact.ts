// What of an upstream's error answer reaches the log: its first 2 KiB, with tokens (anything shaped
// like a JWT) and the tenant key removed. Upstream text never reaches a client.
import type { FastifyBaseLogger } from 'fastify'
import type { Classified, Operation } from './classify.js'

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g
const LOGGED_BYTES = 2048

/** The body as it may be logged. */
export const redactedBody = (raw: Buffer, tenantKey: string): string =>
  raw
    .subarray(0, LOGGED_BYTES)
    .toString('utf8')
    .replace(JWT, '[redacted]')
    .replaceAll(tenantKey, '[redacted]')

/** One line per error answer: error level for a refused tenant key, warn for upstream trouble. */
export function logAnswer(
  log: FastifyBaseLogger,
  tenantKey: string,
  answer: { operation: Operation; status: number; raw: Buffer },
  outcome: Classified,
) {
  const level =
    outcome.error.code === 'UPSTREAM_AUTH_FAILED' ? 'error' : outcome.unclassified ? 'warn' : 'info'
  log[level](
    {
      upstream: {
        operation: answer.operation,
        status: answer.status,
        body: redactedBody(answer.raw, tenantKey),
        code: outcome.error.code,
      },
    },
    'upstream answered with an error',
  )
}
