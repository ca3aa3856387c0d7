// Liveness and readiness. Readiness tells a load balancer whether *this instance* should get traffic,
// so it fails (503) only for what is the instance's own: no catalog copy yet, a tenant key refused
// since start-up, a shutdown under way. The trouble of a dependency every instance shares (the
// upstream, Redis) is reported under `degraded` while the answer stays 200: failing readiness on it
// would take every instance out of the pool in the same second. Each member that starts or stops
// failing or degrading is logged once, and metrics show the current state.
import type { FastifyInstance, RouteShorthandOptions } from 'fastify'
import fp from 'fastify-plugin'
import { z } from 'zod'
import { problems } from '../problems.js'

export interface ReadinessCheck {
  name: string
  /** Undefined when fine, or why not. */
  problem(): string | undefined
  /** True when a problem degrades service without making the instance unable to serve. */
  degradesOnly?: boolean
}

export interface ReadinessState {
  /** Members failing readiness (this instance's own), with why. */
  failing: Record<string, string>
  /** Members degrading it (shared dependencies), with why. */
  degraded: Record<string, string>
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: { state(): ReadinessState }
  }
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
            'This instance should get traffic. `degraded` names shared dependencies in trouble (the upstream, Redis, a tenant key that stopped working, a catalog past its stale age) while the instance still serves what it can. A 503 names the failing members under `checks`: no catalog yet, a tenant key refused since start-up, shutting down.',
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

/** How often the members are looked at for the log, when no probe asks. */
const WATCH_EVERY_MS = 1_000

export const health = fp(
  async (app: FastifyInstance, opts: { checks: () => ReadinessCheck[] }) => {
    let logged = new Map<string, string>()
    const state = (): ReadinessState => {
      const failing: Record<string, string> = {}
      const degraded: Record<string, string> = {}
      for (const check of opts.checks()) {
        const problem = check.problem()
        if (problem !== undefined) (check.degradesOnly ? degraded : failing)[check.name] = problem
      }
      logChanges(failing, degraded)
      return { failing, degraded }
    }
    // One line per member that starts or stops failing or degrading (not per changed wording).
    const logChanges = (failing: Record<string, string>, degraded: Record<string, string>) => {
      const now = new Map<string, string>()
      for (const [name, why] of Object.entries(failing)) now.set(`${name} failing`, why)
      for (const [name, why] of Object.entries(degraded)) now.set(`${name} degraded`, why)
      for (const [key, why] of now) {
        if (logged.has(key)) continue
        const [member, kind] = key.split(' ') as [string, string]
        app.log.warn({ readiness: { member, kind, why } }, `readiness: ${key}: ${why}`)
      }
      for (const key of logged.keys()) {
        if (now.has(key)) continue
        const [member, kind] = key.split(' ') as [string, string]
        app.log.info(
          { readiness: { member, kind: 'fine', was: kind } },
          `readiness: ${member} no longer ${kind}`,
        )
      }
      logged = now
    }
    app.decorate('readiness', { state })
    const watch = setInterval(state, WATCH_EVERY_MS)
    watch.unref()
    app.addHook('onClose', () => clearInterval(watch))

    app.get('/healthz', HEALTH, async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ status: 'ok' }),
    )
    app.get('/readyz', READINESS, async (_request, reply) => {
      const { failing, degraded } = state()
      if (Object.keys(failing).length > 0) throw problems.notReady(failing, degraded)
      const body = Object.keys(degraded).length > 0 ? { degraded } : {}
      return reply.header('cache-control', 'no-store').send({ status: 'ready', ...body })
    })
  },
  { name: 'health' },
)
