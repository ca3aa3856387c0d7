// Liveness and readiness. Ready means the catalog is loaded and the upstream answered recently, so a
// load balancer sends traffic only to instances that can serve it. A check that only degrades the
// gateway (Redis: every instance shares it, so failing readiness on it would empty the whole pool)
// is reported under `degraded` while the answer stays 200.
import type { FastifyInstance } from 'fastify'
import { GatewayError } from '../errors.js'

export interface ReadinessCheck {
  name: string
  /** Undefined when fine, or why not. */
  problem(): string | undefined
  /** True when a problem degrades service without making the instance unable to serve. */
  degradesOnly?: boolean
}

export async function health(app: FastifyInstance, opts: { checks: () => ReadinessCheck[] }) {
  app.get('/healthz', { config: { group: false } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  )
  app.get('/readyz', { config: { group: false } }, async (_request, reply) => {
    const failing = opts
      .checks()
      .map((check) => ({ check, problem: check.problem() }))
      .filter((f) => f.problem !== undefined)
    const problems = Object.fromEntries(failing.map((f) => [f.check.name, f.problem]))
    if (failing.some((f) => !f.check.degradesOnly)) {
      throw new GatewayError('SERVICE_UNAVAILABLE', 'The gateway is not ready to serve.', {
        members: { checks: problems },
      })
    }
    const degraded = failing.length > 0 ? { degraded: problems } : {}
    return reply.header('cache-control', 'no-store').send({ status: 'ready', ...degraded })
  })
}
