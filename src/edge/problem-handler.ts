// The single error handler: any error (ours, Fastify's, a bug) becomes a problem document. A bug is
// INTERNAL and logged with its stack; the client never sees a stack or an upstream body.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { routeOf } from './route-group.js'
import {
  type ErrorCode,
  errorTypeBase,
  type FieldError,
  GatewayError,
  PROBLEM_CONTENT_TYPE,
  renderProblem,
} from '../errors.js'
import { problems } from '../problems.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Validation failures on these fields get a more precise code than VALIDATION_FAILED. */
    invalidCodes?: Partial<Record<string, ErrorCode>>
  }
}

const CONTEXT_NAMES: Record<string, string> = { querystring: 'query', params: 'path', headers: 'header' }

/**
 * One entry per bad field, its first failure: zod goes on checking a field after a check fails, so a
 * value that is both malformed and out of range would otherwise be listed twice.
 */
function fieldErrors(err: FastifyError, where: string): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(err)) return [{ path: where, message: err.message }]
  const byPath = new Map<string, FieldError>()
  for (const v of err.validation) {
    const path = [where, ...v.instancePath.split('/').filter(Boolean)].join('.')
    if (!byPath.has(path)) byPath.set(path, { path, message: v.message ?? 'is not valid' })
  }
  return [...byPath.values()]
}

function fromValidation(err: FastifyError, request: FastifyRequest): GatewayError {
  const where = CONTEXT_NAMES[err.validationContext ?? ''] ?? err.validationContext ?? 'body'
  const errors = fieldErrors(err, where)
  const invalidCodes = routeOf(request).invalidCodes ?? {}
  const field = errors.map((e) => e.path.split('.')[1]).find((f) => f !== undefined && invalidCodes[f])
  if (field) return problems.invalidField(invalidCodes[field] as ErrorCode, where, field, errors)
  return problems.invalidInput(where, errors)
}

/**
 * A library's or a plugin's own refusal (Fastify's body parser, the reference page's static-file
 * server) by its status: a 4xx is the client's, so it becomes the code of that status, or the nearest
 * the API has. A path a static-file server refuses (403: dot-segments, a NUL byte) names no file this
 * gateway serves, as a missing one does (NOT_FOUND, no hint that a check exists); a request the
 * resource cannot meet as sent (a range or a precondition: 416, 412, 406...) is VALIDATION_FAILED.
 * Anything else is a fault of ours.
 */
export function libraryProblem(err: FastifyError): GatewayError {
  const status = err.statusCode ?? 500
  switch (status) {
    case 400:
      return problems.bodyNotJson()
    case 413:
      return problems.bodyTooLarge()
    case 415:
      return problems.bodyNotJsonType()
    case 408:
      return problems.requestTooSlow()
    case 414:
      return problems.requestTargetTooLong()
    case 431:
      return problems.headersTooLarge()
    case 404:
    case 405:
    case 410:
      return problems.noSuchRoute()
    case 403:
      return problems.noSuchFile()
    default:
      return status >= 400 && status < 500 ? problems.notServable() : problems.internal(err)
  }
}

/** Maps Fastify's own errors (body parsing, limits), its plugins' and anything unexpected onto our codes. */
export function toGatewayError(err: unknown, request: FastifyRequest): GatewayError {
  if (err instanceof GatewayError) return err
  const e = err as FastifyError
  if (e.validation) return fromValidation(e, request)
  return libraryProblem(e)
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: GatewayError,
  typeBase: string,
) {
  request.problemCode = error.code
  request.server.declaredAnswers.problemSent(request, error.code)
  return reply
    .code(error.status)
    .headers(error.headers)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(renderProblem(error, request.id, typeBase))
}

export const problemHandler = fp(
  async (app: FastifyInstance, opts: { apiPrefix: string; publicOrigin: string }) => {
    const typeBase = errorTypeBase(opts.publicOrigin, opts.apiPrefix)
    app.setErrorHandler((err, request, reply) => {
      const error = toGatewayError(err, request)
      if (error.code === 'INTERNAL') request.log.error({ err }, 'unhandled error')
      return sendProblem(request, reply, error, typeBase)
    })
    app.setNotFoundHandler((request, reply) => sendProblem(request, reply, problems.noSuchRoute(), typeBase))
  },
  { name: 'problem-handler', dependencies: ['declared-routes', 'request-logging'] },
)
