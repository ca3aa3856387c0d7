// The client's IP, as rate limits, stream limits and the log line count it, and the key a signed-out
// client is known by (rate limits, Idempotency-Key scope). Behind a proxy that names the client in its
// own header (Fly-Client-IP), that header is trusted only when configured (CLIENT_IP_HEADER);
// otherwise Fastify's trustProxy rules decide request.ip.
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    /** CLIENT_IP_HEADER, lower-cased; undefined: request.ip. */
    clientIpHeader: string | undefined
  }
}

/** Read through the instance, which every request has (those the router refuses too). */
export function clientIpOf(request: FastifyRequest): string {
  const header = request.server.clientIpHeader
  if (header) {
    const value = request.headers[header]
    const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim()
    if (first) return first
  }
  return request.ip
}

/**
 * The signed-out client's key: IPv6 addresses normalised by the rate-limit plugin's own rule (a /64
 * counts as one client), anything else lower-cased as the plugin does. An address without a colon is
 * not IPv6, so it skips the plugin's IPv6 test (node:net's, a regular expression over a kilobyte long)
 * on every request.
 */
export function clientKeyOf(request: FastifyRequest): string {
  const ip = clientIpOf(request)
  return ip.includes(':') ? normalizeIP(ip) : ip.toLowerCase()
}

export const clientIp = fp(
  async (app: FastifyInstance, opts: { header: string | undefined }) => {
    app.decorate('clientIpHeader', opts.header)
  },
  { name: 'client-ip' },
)
