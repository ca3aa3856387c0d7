// Logger options and the one log line per request, whose hooks also begin and finish the request's
// trace. Secrets are redacted at the logger, and order uuids (bearer capabilities) are shortened
// before a URL is logged.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import pino from 'pino'
import { routeUrlOf } from './route-group.js'

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

const BATCH_CHARS = 4096
const FLUSH_EVERY_MS = 250

/**
 * Lines joined into batches of about 4 KiB and handed to sonic-boom one batch at a time, which writes
 * each synchronously (pino's own default: an asynchronous write goes through libuv's thread pool,
 * and that hand-off cost more CPU per line than building the line). sonic-boom's own buffering
 * (`minLength`) measures its whole pending buffer again on every line, up to 4 KiB of UTF-8 per log
 * line; that cost more than the rest of the line. Joined here, each batch is measured once.
 */
class BatchedDestination {
  private lines: string[] = []
  private chars = 0

  constructor(readonly stream: ReturnType<typeof pino.destination>) {}

  write(line: string): void {
    this.lines.push(line)
    this.chars += line.length
    if (this.chars >= BATCH_CHARS) this.flush()
  }

  /** Hands the pending lines to the stream, which writes them before returning. */
  flush(): void {
    if (this.lines.length === 0) return
    const text = this.lines.join('')
    this.lines = []
    this.chars = 0
    this.stream.write(text)
  }
}

/** Batched destinations, flushed when the process exits (pino does that for asynchronous ones only). */
const batched = new Set<BatchedDestination>()
const flushBatched = () => {
  for (const destination of batched) destination.flush()
}

/** Where log lines go: in batches of about 4 KiB, or every 250 ms when traffic is light, and on exit. */
export function logDestination(dest: number | string) {
  const destination = new BatchedDestination(pino.destination({ dest, sync: true }))
  if (!process.listeners('exit').includes(flushBatched)) process.once('exit', flushBatched)
  batched.add(destination)
  const timer = setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref()
  destination.stream.once('close', () => {
    clearInterval(timer)
    batched.delete(destination)
  })
  return destination
}

const UUID = /([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/**
 * Keeps the first 8 hex digits of each uuid: enough to correlate, useless to read an order. Text
 * without a hyphen holds no uuid (most request lines): the scan is skipped for it.
 */
export const shortenIds = (text: string): string => (text.includes('-') ? text.replace(UUID, '$1…') : text)

declare module 'fastify' {
  interface FastifyRequest {
    /** Time this request spent waiting on the upstream, in ms. */
    upstreamTiming: { ms: number }
    /** The problem code this request ended with, if any. */
    problemCode: string | undefined
  }
}

function line(request: FastifyRequest, statusCode: number, elapsed: number) {
  return {
    method: request.method,
    url: shortenIds(request.url),
    route: routeUrlOf(request) ?? null,
    status: statusCode,
    ms: Math.round(elapsed * 10) / 10,
    upstreamMs: Math.round(request.upstreamTiming.ms * 10) / 10,
    ...(request.problemCode ? { code: request.problemCode } : {}),
    traceId: request.trace?.traceId,
  }
}

export const requestLogging = fp(
  async (app: FastifyInstance) => {
    // Fastify forbids shared object defaults on requests; each request gets its own in onRequest.
    app.decorateRequest('upstreamTiming', null as unknown as { ms: number })
    app.decorateRequest('problemCode', undefined)
    // Callback hooks: on every request, a promise per hook is measurable.
    const { tracing } = app
    app.addHook('onRequest', (request, reply, done) => {
      request.upstreamTiming = { ms: 0 }
      request.trace = tracing.begin(request.method, request.headers)
      reply.header('x-request-id', request.id)
      done()
    })
    app.addHook('onResponse', (request, reply, done) => {
      if (request.trace)
        tracing.finish(request.trace, routeUrlOf(request), reply.statusCode, request.problemCode)
      request.log.info(line(request, reply.statusCode, reply.elapsedTime), 'request completed')
      done()
    })
  },
  { name: 'request-logging', dependencies: ['tracing'] },
)
