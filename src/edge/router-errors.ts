// The answers Fastify's router would otherwise write itself (a malformed URL, a path parameter over
// the limit), as our problem documents, so no framework code or message reaches a client
// (docs/api.md, "Errors").
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import { beginRequest, completeRequest } from './logging.js'
import { libraryProblem, sendProblem } from './problem-handler.js'

function frameworkProblem(err: FastifyError): GatewayError {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return problems.malformedUrl()
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return problems.pathParameterTooLong()
    default:
      return libraryProblem(err)
  }
}

/** Fastify's `frameworkErrors` option; `typeBase`: where problem types point (errorTypeBase). */
export function routerErrors(typeBase: string) {
  return function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    // Fastify calls this before any hook: the request is begun and completed here as the edge's
    // hooks do for every other, so its log line and trace are the same as theirs.
    beginRequest(request, reply)
    const problem = frameworkProblem(err)
    if (problem.code === 'INTERNAL') request.log.error({ err }, 'unhandled framework error')
    reply.headers(request.server.apiSecurityHeaders)
    reply.raw.once('finish', () => completeRequest(request, reply))
    void sendProblem(request, reply, problem, typeBase)
  }
}
