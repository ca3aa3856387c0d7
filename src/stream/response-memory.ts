// What Node keeps of a response's head after sending it, released for long-lived streams: at ten
// thousand open streams these copies are about a third of the gateway's memory. This relies on Node
// internals, so each step checks what it finds and does nothing when Node differs.
import type { ServerResponse } from 'node:http'

interface Internals {
  _header?: unknown
  _headerSent?: unknown
}

/**
 * Call once the head is on the wire. Node keeps (1) the head text, about 1 KB with our security
 * headers, only to answer `headersSent`; and (2) a map of every header as [name, value] pairs (it
 * exists because the security headers were set before writeHead), only to answer getHeader. Neither
 * is needed again on a stream: the text becomes a one-character stand-in and the map goes.
 */
export function releaseSentHead(res: ServerResponse): void {
  const internals = res as ServerResponse & Internals
  if (internals._headerSent !== true || typeof internals._header !== 'string') return
  internals._header = '\n'
  const store = res as unknown as Record<symbol, unknown>
  const headers = Object.getOwnPropertySymbols(res).find((s) => s.description === 'kOutHeaders')
  if (headers && typeof store[headers] === 'object') store[headers] = null
}
