// Liveness and readiness. Ready means the catalog is loaded and the upstream answered recently, so a
// load balancer sends traffic only to instances that can serve it.
import type { FastifyInstance } from 'fastify'
import { GatewayError } from '../errors.js'

export interface ReadinessCheck {
  name: string
  /** Undefined when fine, or why not. */
  problem(): string | undefined
}

export async function health(app: FastifyInstance, opts: { checks: () => ReadinessCheck[] }) {
  app.get('/healthz', { config: { group: false } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  )
  app.get('/readyz', { config: { group: false } }, async (_request, reply) => {
    const problems = Object.fromEntries(
      opts
        .checks()
        .map((c) => [c.name, c.problem()] as const)
        .filter(([, p]) => p !== undefined),
    )
    if (Object.keys(problems).length > 0) {
      throw new GatewayError('SERVICE_UNAVAILABLE', 'The gateway is not ready to serve.', { members: { checks: problems } })
    }
    return reply.header('cache-control', 'no-store').send({ status: 'ready' })
  })
}
