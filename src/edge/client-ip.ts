// The client's IP, as rate limits and stream limits count it. Behind a proxy that names the client in
// its own header (Fly-Client-IP), that header is trusted only when configured; otherwise Fastify's
// trustProxy rules decide request.ip.
import type { FastifyRequest } from 'fastify'

export function clientIpOf(request: FastifyRequest, header: string | undefined): string {
  if (header) {
    const value = request.headers[header]
    const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim()
    if (first) return first
  }
  return request.ip
}
