// While the gateway shuts down, new requests get a SERVICE_UNAVAILABLE problem document (Fastify's
// own 503 is not one) with Connection: close, so clients retry against another instance.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayError } from '../errors.js'

export const draining = fp(
  async (app: FastifyInstance) => {
    let closing = false
    app.addHook('preClose', async () => {
      closing = true
    })
    // Answers finished while draining close their connection, or keep-alive sockets would hold the
    // server open until the deadline.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close')
      done(null, payload)
    })
    app.addHook('onRequest', (_request, _reply, done) => {
      if (!closing) return done()
      done(
        new GatewayError('SERVICE_UNAVAILABLE', 'The gateway is shutting down; retry shortly.', {
          headers: { 'retry-after': '1' },
          members: { retryAfter: 1 },
        }),
      )
    })
  },
  { name: 'draining' },
)
