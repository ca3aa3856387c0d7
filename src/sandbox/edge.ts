// What happens to every spec request before its route runs, in this order: it is recorded, a
// queued fault may take it over, then the Origin rule is applied (before any authentication).
// Control routes under /__sandbox/ bypass all of it.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { SandboxClock } from './clock.js'
import { genericServerError } from './envelopes.js'
import type { FaultEffects } from './fault-effects.js'
import type { Fault, FaultQueue } from './faults.js'
import { isOriginAllowed } from './origin.js'
import type { RecordedRequest, RequestLog } from './recorder.js'
import { isRouteKey, type RouteKey } from './route-keys.js'

const CONTROL_PREFIX = '/__sandbox/'

const STREAM_ROUTE: RouteKey = 'GET /orders/:orderUUID/status-stream'

export interface EdgeDeps {
  clock: SandboxClock
  requestLog: RequestLog
  faults: FaultQueue
  effects: FaultEffects
  serviceDomain: string
}

function routeOf(request: FastifyRequest): RouteKey | null | 'control' {
  if (request.url.startsWith(CONTROL_PREFIX)) return 'control'
  const key = `${request.method} ${request.routeOptions.url}`
  return isRouteKey(key) ? key : null
}

/** Installs the hooks; returns the predicate routes that hijack their reply use for `dropAfter`. */
export function installEdge(app: FastifyInstance, deps: EdgeDeps): (request: FastifyRequest) => boolean {
  const recorded = new WeakMap<FastifyRequest, RecordedRequest>()
  const dropAfter = new WeakSet<FastifyRequest>()
  const trickled = new WeakMap<FastifyRequest, Extract<Fault, { kind: 'trickle' }>>()

  app.addHook('onRequest', async (request, reply) => {
    const route = routeOf(request)
    if (route === 'control') return
    recorded.set(request, deps.requestLog.record(request, route, deps.clock.now()))
    if (route === null) return
    const fault = deps.faults.take(route)
    if (fault) {
      const outcome = await deps.effects.apply(fault, request, reply)
      if (outcome === 'answered') return reply
      if (outcome === 'continue-then-drop') dropAfter.add(request)
      if (fault.kind === 'trickle') trickled.set(request, fault)
    }
    const origin = request.headers.origin
    if (origin !== undefined && !isOriginAllowed(origin, deps.serviceDomain, route === STREAM_ROUTE)) {
      throw genericServerError()
    }
  })

  app.addHook('preHandler', async (request) => {
    const entry = recorded.get(request)
    if (entry) entry.body = request.body
  })

  app.addHook('onSend', async (request, _reply, payload) => {
    if (dropAfter.has(request)) request.raw.socket.destroy()
    const trickle = trickled.get(request)
    return trickle ? deps.effects.trickle(payload, trickle) : payload
  })

  return (request) => dropAfter.has(request)
}
