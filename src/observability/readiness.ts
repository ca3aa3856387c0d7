// Readiness tells a load balancer whether *this instance* should get traffic, so it fails (503) only
// for what is the instance's own: no catalog copy yet, a tenant key refused since start-up, a shutdown
// under way. The trouble of a dependency every instance shares (the upstream, Redis) is reported as
// degraded while the answer stays 200: failing readiness on it would take every instance out of the
// pool in the same second. Each capability adds its own members (`app.readiness.add`); each member
// that starts or stops failing or degrading is logged once, and metrics show the current state.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

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
    readiness: {
      add(...checks: ReadinessCheck[]): void
      state(): ReadinessState
    }
  }
}

/** How often the members are looked at for the log, when no probe asks. */
const WATCH_EVERY_MS = 1_000

export const readinessPlugin = fp(
  async (app: FastifyInstance) => {
    const checks: ReadinessCheck[] = []
    let logged = new Map<string, string>()
    const state = (): ReadinessState => {
      const failing: Record<string, string> = {}
      const degraded: Record<string, string> = {}
      for (const check of checks) {
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
    app.decorate('readiness', { add: (...more: ReadinessCheck[]) => void checks.push(...more), state })
    const watch = app.clock.setInterval(state, WATCH_EVERY_MS)
    watch.unref()
    app.addHook('onClose', () => app.clock.clearInterval(watch))

    app.metrics.gauge({
      name: 'gateway_ready',
      help: '1 while /readyz answers 200 (no member of this instance failing)',
      collect() {
        this.set(Object.keys(state().failing).length === 0 ? 1 : 0)
      },
    })
    app.metrics.gauge({
      name: 'gateway_readiness_problem',
      help: 'Readiness members in trouble: 1 per member, with state failing (its own: 503) or degraded (shared: still 200)',
      labelNames: ['member', 'state'],
      collect() {
        this.reset()
        const { failing, degraded } = state()
        for (const member of Object.keys(failing)) this.set({ member, state: 'failing' }, 1)
        for (const member of Object.keys(degraded)) this.set({ member, state: 'degraded' }, 1)
      },
    })
  },
  { name: 'readiness', dependencies: ['metrics'], decorators: { fastify: ['clock'] } },
)
