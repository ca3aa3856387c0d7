// The one log line per request, with order uuids (bearer capabilities) shortened in its URL; its
// hooks also begin and finish the request's trace.
import { clientIpOf } from './client-ip.js'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Logger } from 'pino'
import type { RequestLine } from './request-line.js'
import { RequestLog } from './request-log.js'
import { routeUrlOf } from './route-group.js'
import { shortenIds } from './shorten-ids.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Time this request spent waiting on the upstream, in ms. */
    upstreamTiming: { ms: number }
    /** The problem code this request ended with, if any. */
    problemCode: string | undefined
  }
  interface FastifyInstance {
    /** Writes a request's line while its own child logger is not needed (edge/request-line.ts). */
    requestLine: RequestLine
  }
}

export interface RequestLoggingOptions {
  /** Writes the line in pino's bytes, straight to the logger's destination. */
  requestLine: RequestLine
}

/**
 * The line's fields; `requestId` (the child logger's binding) given when the line goes through the
 * parent logger, undefined (and so left out) when through the child, which writes it itself. One shape
 * either way, with the fields in one order.
 */
function line(request: FastifyRequest, statusCode: number, elapsed: number, requestId: string | undefined) {
  return {
    requestId,
    method: request.method,
    // The client as rate limits key it: behind a trusted proxy, its own address.
    client: clientIpOf(request),
    url: shortenIds(request.url),
    route: routeUrlOf(request) ?? null,
    status: statusCode,
    ms: Math.round(elapsed * 10) / 10,
    upstreamMs: Math.round(request.upstreamTiming.ms * 10) / 10,
    code: request.problemCode || undefined,
    traceId: request.trace?.traceId,
  }
}

/** What every request starts with: its upstream timer, its trace, its id on the answer. */
export function beginRequest(request: FastifyRequest, reply: FastifyReply) {
  request.upstreamTiming = { ms: 0 }
  // Health probes (a load balancer's, every second or two) start no trace: they would drown the rest.
  const route = routeUrlOf(request)
  request.trace =
    route === '/healthz' || route === '/readyz'
      ? null
      : request.server.tracing.begin(request.method, request.headers)
  reply.header('x-request-id', request.id)
}

/** What every answered request ends with: its trace finished and its one log line. */
export function completeRequest(request: FastifyRequest, reply: FastifyReply) {
  if (request.trace)
    request.server.tracing.finish(request.trace, routeUrlOf(request), reply.statusCode, request.problemCode)
  // Straight to the destination while the request's child is not needed and its parent is its
  // server's logger, whose bytes the line copies; through the child otherwise.
  const log = request.server.log
  const direct = request.log instanceof RequestLog && request.log.parentWhileUnneeded() === log
  const fields = line(request, reply.statusCode, reply.elapsedTime, direct ? request.id : undefined)
  if (!direct) request.log.info(fields, 'request completed')
  else if ((log as Logger).isLevelEnabled('info'))
    request.server.requestLine.write(fields, 'request completed')
}

export const requestLogging = fp(
  async (app: FastifyInstance, opts: RequestLoggingOptions) => {
    app.decorate('requestLine', opts.requestLine)
    // Fastify forbids shared object defaults on requests; each request gets its own in onRequest.
    app.decorateRequest('upstreamTiming', null as unknown as { ms: number })
    app.decorateRequest('problemCode', undefined)
    // Callback hooks: on every request, a promise per hook is measurable.
    app.addHook('onRequest', (request, reply, done) => {
      beginRequest(request, reply)
      done()
    })
    app.addHook('onResponse', (request, reply, done) => {
      completeRequest(request, reply)
      done()
    })
  },
  { name: 'request-logging', dependencies: ['tracing', 'client-ip'] },
)
