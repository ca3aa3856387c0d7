// Liveness and readiness routes for load balancers and orchestrators. What readiness weighs, and why
// shared trouble only degrades it, is in observability/readiness.ts.
import type { FastifyInstance, RouteShorthandOptions } from 'fastify'
import fp from 'fastify-plugin'
import { z } from 'zod'
import { documented } from '../edge/wire-types.js'
import { problems } from '../problems.js'

/** Never rate-limited: load balancers and orchestrators call these. */
const HEALTH: RouteShorthandOptions = {
  schema: {
    summary: 'Liveness',
    description: 'Whether the process is alive: 200 while it runs. Never rate-limited.',
    tags: ['ops'],
    operationId: 'getHealth',
  },
  config: {
    group: false,
    answers: {
      success: { 200: { description: 'The process is alive.', body: z.object({ status: z.literal('ok') }) } },
      problems: [],
    },
  },
}
const READINESS: RouteShorthandOptions = {
  schema: {
    summary: 'Readiness',
    description:
      'Whether this instance should get traffic: 503 while it has no catalog yet, while it shuts down, or when its tenant key was refused at start-up. Shared dependencies in trouble show under `degraded` in a 200.',
    tags: ['ops'],
    operationId: 'getReadiness',
  },
  config: {
    group: false,
    answers: {
      success: {
        200: {
          description:
            'This instance should get traffic. `degraded` names shared dependencies in trouble (the upstream, Redis, a tenant key that stopped working, a catalog past its stale age) while the instance still serves what it can. A 503 names the failing members under `checks`: no catalog yet, a tenant key refused since start-up, shutting down.',
          body: z.object({
            status: z.literal('ready'),
            degraded: z
              .record(documented(z.string(), { maxLength: 64 }), documented(z.string(), { maxLength: 512 }))
              .optional(),
          }),
        },
      },
      problems: ['SERVICE_UNAVAILABLE'],
    },
  },
}

export const health = fp(
  async (app: FastifyInstance) => {
    app.get('/healthz', HEALTH, async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ status: 'ok' }),
    )
    app.get('/readyz', READINESS, async (_request, reply) => {
      const { failing, degraded } = app.readiness.state()
      if (Object.keys(failing).length > 0) throw problems.notReady(failing, degraded)
      const body = Object.keys(degraded).length > 0 ? { degraded } : {}
      return reply.header('cache-control', 'no-store').send({ status: 'ready', ...body })
    })
  },
  { name: 'health', dependencies: ['readiness'] },
)
