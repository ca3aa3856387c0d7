// Sends a catalog body the way every catalog route does: the coding chosen from Accept-Encoding,
// a strong ETag per coding, 304 for a matching If-None-Match, and the cache headers.
import { negotiate } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CacheStatus } from './cache.js'
import type { Coding, Representation } from './representation.js'

const JSON_TYPE = 'application/json; charset=utf-8'
/** Distinct Accept-Encoding values whose coding is remembered. */
const REMEMBERED_CODINGS = 64

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): a W/ prefix is ignored. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  // What a client sends back is nearly always the one tag it was given: no list to split.
  if (ifNoneMatch === etag) return true
  if (ifNoneMatch.trim() === '*') return true
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary')
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding')
}

export type SendBody = (
  request: FastifyRequest,
  reply: FastifyReply,
  body: Representation,
  /** The catalog's X-Cache-Status; absent for a body that is not the catalog's (the OpenAPI document). */
  status?: CacheStatus,
) => FastifyReply | Promise<FastifyReply>

export function bodySender(cacheControl: string): SendBody {
  // Clients send few distinct Accept-Encoding values: each is parsed once, into a plain map (an LRU's
  // bookkeeping cost more than the lookup); past REMEMBERED_CODINGS values, the rest are parsed each time.
  const chosen = new Map<string, Coding>()
  const codingOf = (header: string): Coding => {
    let coding = chosen.get(header)
    if (coding === undefined) {
      // br wins ties.
      coding = negotiate<Coding>(header, ['br', 'gzip', 'identity']) ?? 'identity'
      if (chosen.size < REMEMBERED_CODINGS) chosen.set(header, coding)
    }
    return coding
  }
  return (request, reply, body, status) => {
    const coding = body.codingFor(codingOf(request.headers['accept-encoding'] ?? ''))
    const etag = body.etag(coding)
    reply.header('etag', etag).header('cache-control', cacheControl)
    if (status) reply.header('x-cache-status', status)
    addVary(reply)
    // A 304 carries no representation metadata beyond what refreshes the cache (RFC 9110 §15.4.5).
    if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send()
    reply.header('content-type', JSON_TYPE)
    if (coding !== 'identity') reply.header('content-encoding', coding)
    const bytes = body.body(coding)
    return Buffer.isBuffer(bytes) ? reply.send(bytes) : bytes.then((b) => reply.send(b))
  }
}
