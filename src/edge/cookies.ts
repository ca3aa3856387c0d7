// Request cookies, parsed when first read. @fastify/cookie is registered without its parsing hook:
// that hook gave every request a cookie object and a Set-Cookie map, and every response a pass
// through its onSend hook, though only sessions and the origin policy's state-change rule read them.
// Setting a cookie still works as the plugin documents (it creates the map on first use). The session
// cookie's name is the edge's too: the origin policy reads it to tell a browser's state change.
import cookie from '@fastify/cookie'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

export const cookieSupport = fp(
  async (app: FastifyInstance) => {
    await app.register(cookie, { hook: false })
  },
  { name: 'cookies' },
)

export function cookiesOf(request: FastifyRequest): FastifyRequest['cookies'] {
  const parsed = request.cookies as FastifyRequest['cookies'] | null
  if (parsed) return parsed
  request.cookies = request.server.parseCookie(request.headers.cookie ?? '')
  return request.cookies
}

export interface SessionCookie {
  name: string
  secure: boolean
}

/** `__Host-session` (Secure, Path=/, no Domain) when browsers reach us over HTTPS; `session` otherwise. */
export function sessionCookieFor(publicOrigin: string): SessionCookie {
  const secure = new URL(publicOrigin).protocol === 'https:'
  return { name: secure ? '__Host-session' : 'session', secure }
}

export const cookieAttributes = (cookie: SessionCookie) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure: cookie.secure }) as const
