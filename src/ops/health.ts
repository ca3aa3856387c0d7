// Liveness and readiness. Ready means the catalog is loaded and the upstream answered recently, so a
// load balancer sends traffic only to instances that can serve it. A check that only degrades the
// gateway (Redis: every instance shares it, so failing readiness on it would empty the whole pool)
// is reported under `degraded` while the answer stays 200.
import type { FastifyInstance, RouteShorthandOptions } from 'fastify'
import { z } from 'zod'
import { GatewayError } from '../errors.js'

export interface ReadinessCheck {
  name: string
  /** Undefined when fine, or why not. */
  problem(): string | undefined
  /** True when a problem degrades service without making the instance unable to serve. */
  degradesOnly?: boolean
}

/** Never rate-limited: load balancers and orchestrators call these. */
const HEALTH: RouteShorthandOptions = {
  schema: { summary: 'Liveness', tags: ['ops'], operationId: 'getHealth' },
  config: {
    group: false,
    answers: {
      success: { 200: { description: 'The process is alive.', body: z.object({ status: z.literal('ok') }) } },
      problems: [],
    },
  },
}
const READINESS: RouteShorthandOptions = {
  schema: { summary: 'Readiness', tags: ['ops'], operationId: 'getReadiness' },
  config: {
    group: false,
    answers: {
      success: {
        200: {
          description:
            'Ready to serve: the catalog is loaded and the upstream answered recently. `degraded` names shared helpers that are away (Redis) while the instance still serves.',
          body: z.object({
            status: z.literal('ready'),
            degraded: z.record(z.string(), z.string()).optional(),
          }),
        },
      },
      problems: ['SERVICE_UNAVAILABLE'],
    },
  },
}

export async function health(app: FastifyInstance, opts: { checks: () => ReadinessCheck[] }) {
  app.get('/healthz', HEALTH, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  )
  app.get('/readyz', READINESS, async (_request, reply) => {
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
