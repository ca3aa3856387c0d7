// A client's x-request-id is kept when it is sane, so ids can be followed across systems; anything
// else is replaced, so a header cannot inject text into our logs.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

const SANE = /^[A-Za-z0-9._-]{1,128}$/

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID()
}
