// INTERIM (replaced by the auth capability): no sessions yet.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { CredentialSource } from '../orders/ports.js'

declare module 'fastify' {
  interface FastifyInstance {
    sessions: CredentialSource
  }
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('sessions', { credentialsFor: async () => undefined } satisfies CredentialSource)
  },
  { name: 'auth' },
)
