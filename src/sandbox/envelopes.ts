// The upstream's error bodies. Field order and the casing of "Internal server error" differ from
// one kind to the next on purpose: the spec says they vary, and a gateway must not depend on them.
import { STATUS_CODES } from 'node:http'

/** An error the sandbox answers with a fixed upstream envelope; the error handler sends `body` as is. */
export class UpstreamError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : `upstream ${statusCode}`)
  }
}

/** What an unexpected failure, a refused Origin or a malformed verify call look like. */
export function genericServerError(): UpstreamError {
  return new UpstreamError(500, {
    statusCode: 500,
    message: 'Internal server error',
    error: 'Internal Server Error',
  })
}

/** Business validation failures ("Invalid ...", "Couldn't find trade path ..."). */
export function businessError(message: string): UpstreamError {
  return new UpstreamError(500, { message, error: 'Internal Server Error', statusCode: 500 })
}

/** The unknown or malformed order uuid: exactly two members, no `error`. */
export function unknownOrderError(): UpstreamError {
  return new UpstreamError(500, { statusCode: 500, message: 'Internal Server Error' })
}

export function unauthorized(message: string): UpstreamError {
  return new UpstreamError(401, { message, error: 'Unauthorized', statusCode: 401 })
}

/** The framework's own 4xx (parse pipes, body parser, body size limit). */
export function frameworkError(statusCode: number, message: string): UpstreamError {
  return new UpstreamError(statusCode, { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error' })
}

export function badRequest(message: string): UpstreamError {
  return frameworkError(400, message)
}

export interface ValidationIssue {
  path: (string | number)[]
  code: string
  expected: string
  received: string
  message: string
}

/** The history route's schema validation failure. */
export function validationFailed(errors: ValidationIssue[]): UpstreamError {
  return new UpstreamError(400, { statusCode: 400, message: 'Validation failed', errors })
}

export function routeNotFound(method: string, path: string): Record<string, unknown> {
  return { message: `Cannot ${method} ${path}`, error: 'Not Found', statusCode: 404 }
}
