// The answers Fastify's router and Node's HTTP parser would otherwise write themselves (a malformed
// URL, a path parameter or URL over the limit, headers over the limit, an unreadable request line, a
// client too slow to send its request), written as our problem documents with an x-request-id, so no
// framework code or message ever reaches a client (docs/api.md, "Errors").
import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayError, PROBLEM_CONTENT_TYPE, renderProblem } from '../errors.js'
import { shortenIds } from './shorten-ids.js'
import { sendProblem } from './problems.js'

/** Longest request target (path and query) served; longer is URI_TOO_LONG. Common proxies stop at 8 KiB. */
export const MAX_URL_LENGTH = 8 * 1024
/** Longest path parameter: an order uuid is 36 characters, a token id a few digits. */
export const MAX_PARAM_LENGTH = 100
/** A raw answer the client never reads must not hold its socket: it is destroyed after this. */
const RAW_ANSWER_GRACE_MS = 1_000
/** Enough of a refused URL for the log line to say what it was. */
const LOGGED_URL_CHARS = 256

const urlTooLong = () => new GatewayError('URI_TOO_LONG', 'The request target is longer than allowed.')

function frameworkProblem(err: FastifyError): GatewayError {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return new GatewayError('VALIDATION_FAILED', 'The URL is malformed.', {
        errors: [{ path: 'url', message: 'is not a valid URL (malformed percent-encoding)' }],
      })
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new GatewayError('URI_TOO_LONG', 'A path parameter is longer than allowed.')
    default:
      return new GatewayError('INTERNAL', 'The gateway failed; this has been logged.', { cause: err })
  }
}

interface ParserError extends Error {
  code?: string
  /** What the parser was reading when it failed. */
  rawPacket?: Buffer
}

/** A request line over the URL limit fills the parser's header budget first: that is URI_TOO_LONG. */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false
  const end = packet.indexOf('\r\n')
  return (end === -1 ? packet.length : end) > MAX_URL_LENGTH
}

function parserProblem(err: ParserError): GatewayError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new GatewayError('REQUEST_TIMEOUT', 'The request did not arrive in time.')
    case 'HPE_HEADER_OVERFLOW':
      if (requestLineTooLong(err.rawPacket)) return urlTooLong()
      return new GatewayError('HEADERS_TOO_LARGE', 'The request headers are larger than allowed.')
    default:
      return new GatewayError('VALIDATION_FAILED', 'The request could not be read as HTTP/1.1.')
  }
}

/**
 * Node's own rule: a raw answer may be written only while no response of this connection has begun
 * (a request timing out mid-body may already be answered). Node keeps that response on the socket.
 */
const responseStarted = (socket: Socket) =>
  (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true

function rawAnswer(
  problem: GatewayError,
  requestId: string,
  typeBase: string,
  headers: Record<string, string>,
) {
  const body = renderProblem(problem, requestId, typeBase)
  const lines = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    `content-type: ${PROBLEM_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'cache-control: no-store',
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ]
  return `${lines.join('\r\n')}\r\n\r\n${body}`
}

/** Fastify options: its router's errors and Node's parser errors, answered as problem documents. */
/** `typeBase`: where problem types point (errorTypeBase). */
export function frameworkAnswers(typeBase: string) {
  return {
    frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      // Fastify calls this before any hook: the edge's headers and log line are added here.
      const problem = frameworkProblem(err)
      if (problem.code === 'INTERNAL') request.log.error({ err }, 'unhandled framework error')
      reply.headers(request.server.apiSecurityHeaders).header('x-request-id', request.id)
      void sendProblem(request, reply, problem, typeBase)
      request.log.info(
        {
          method: request.method,
          url: shortenIds(request.url.slice(0, LOGGED_URL_CHARS)),
          status: problem.status,
          code: problem.code,
        },
        'request completed',
      )
    },

    // Fastify binds it to the instance; its type names the error loosely (rawPacket is a Buffer).
    clientErrorHandler(this: FastifyInstance, error: Error, socket: Socket) {
      const err = error as ParserError
      // A reset socket has nobody to answer.
      if (err.code === 'ECONNRESET' || socket.destroyed) return
      // Not writable: already answered (the parser may fail again on bytes still arriving).
      if (!socket.writable || responseStarted(socket)) {
        socket.destroy()
        return
      }
      const problem = parserProblem(err)
      const requestId = randomUUID()
      this.log.info(
        { requestId, status: problem.status, code: problem.code },
        'request refused by the parser',
      )
      socket.end(rawAnswer(problem, requestId, typeBase, this.apiSecurityHeaders ?? {}), () =>
        socket.destroy(),
      )
      setTimeout(() => socket.destroy(), RAW_ANSWER_GRACE_MS).unref()
    },
  }
}

/** A URL over MAX_URL_LENGTH that the parser let through (it fits the header budget) is refused. */
export const requestTargetLimit = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      done(request.url.length > MAX_URL_LENGTH ? urlTooLong() : undefined)
    })
  },
  { name: 'request-target-limit' },
)
