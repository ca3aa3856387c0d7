// The answers Node's HTTP parser would otherwise write itself (headers over the limit, an unreadable
// request line, a client too slow to send its request), written raw on the socket as our problem
// documents with an x-request-id: no request object exists yet (docs/api.md, "Errors").
import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { type GatewayError, PROBLEM_CONTENT_TYPE, renderProblem } from '../errors.js'
import { problems } from '../problems.js'
import { MAX_URL_LENGTH } from './url-limits.js'

/** A raw answer the client never reads must not hold its socket: it is destroyed after this. */
const RAW_ANSWER_GRACE_MS = 1_000

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
      return problems.requestTooSlow()
    case 'HPE_HEADER_OVERFLOW':
      if (requestLineTooLong(err.rawPacket)) return problems.requestTargetTooLong()
      return problems.headersTooLarge()
    default:
      return problems.notHttp()
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

/** Fastify's `clientErrorHandler` option; `typeBase`: where problem types point (errorTypeBase). */
export function parserErrors(typeBase: string) {
  return function clientErrorHandler(this: FastifyInstance, error: Error, socket: Socket) {
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
    this.log.info({ requestId, status: problem.status, code: problem.code }, 'request refused by the parser')
    socket.end(rawAnswer(problem, requestId, typeBase, this.apiSecurityHeaders ?? {}), () => socket.destroy())
    // On the process's timers, not the app's clock: a bound on a real socket's life.
    setTimeout(() => socket.destroy(), RAW_ANSWER_GRACE_MS).unref()
  }
}
