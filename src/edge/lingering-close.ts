// Lingering close: an answer sent while the client is still sending its body (a body over the limit,
// or any refusal made before the body is read) is written at once, but the response ends only after
// the rest of the body has been read and discarded, within a bound of bytes and time, as nginx's
// lingering close does. Closing a socket with unread bytes makes the kernel reset the connection, and
// the reset can destroy the answer before the client reads it: a client still writing would see a
// broken pipe instead of its 413. Past either bound the connection is cut (docs/operations.md).
import type { IncomingMessage } from 'node:http'
import { finished, PassThrough } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** The body bytes still read after an early answer before the connection is cut. */
export const LINGER_MAX_BYTES = 4 * 1024 * 1024
/** How long an early answer waits for the rest of the body before the connection is cut. */
export const LINGER_MAX_MS = 5_000

/** Reads and discards what remains of `req`'s body; `drained` once it is all in or the bounds are hit. */
function discardRest(req: IncomingMessage, drained: () => void) {
  let bytes = 0
  const cut = () => {
    settle()
    req.socket.destroy()
  }
  // On the process's timers, not the app's clock: a bound on a real socket's life.
  const timer = setTimeout(cut, LINGER_MAX_MS)
  const onData = (chunk: Buffer) => {
    bytes += chunk.length
    if (bytes > LINGER_MAX_BYTES) cut()
  }
  let settled = false
  function settle() {
    if (settled) return
    settled = true
    clearTimeout(timer)
    req.off('data', onData)
    drained()
  }
  req.on('data', onData)
  // The whole body in, or the client gone: either way nothing is left to read.
  finished(req, settle)
  req.resume()
}

export const lingeringClose = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      // `complete`: the parser has read the whole request, so the socket holds nothing more of it.
      if (request.raw.complete || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
        done(null, payload)
        return
      }
      // The answer's bytes go out now; its end (and so the close) waits for the body's.
      const answer = new PassThrough()
      reply.header('content-length', Buffer.byteLength(payload))
      answer.write(payload)
      discardRest(request.raw, () => answer.end())
      done(null, answer)
    })
  },
  { name: 'lingering-close' },
)
