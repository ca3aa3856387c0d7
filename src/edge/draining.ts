// Shutdown as the request path sees it (ops/shutdown.ts runs the phases). While the instance is
// unready, readiness fails and everything else is served as usual; once closing, every answer carries
// `Connection: close`, so keep-alive connections (a load balancer's pooled ones included) end with
// the answer they carry instead of holding the server open until the deadline.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    draining: Draining
  }
}

export interface Draining {
  /** Phase 1 of the shutdown: readiness fails from now on. */
  unready(): void
}

export const draining = fp(
  async (app: FastifyInstance) => {
    let unready = false
    let closing = false
    app.decorate('draining', {
      unready: () => {
        unready = true
      },
    } satisfies Draining)
    // Failing from phase 1 on: this instance's own state.
    app.readiness.add({
      name: 'shutdown',
      problem: () => (unready || closing ? 'this instance is shutting down' : undefined),
    })
    app.addHook('preClose', async () => {
      closing = true
    })
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close')
      done(null, payload)
    })
  },
  { name: 'draining', dependencies: ['readiness'] },
)
