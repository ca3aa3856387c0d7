// buildSandbox: a faithful simulator of the upstream swap API (its whole spec, quirks included)
// plus a control surface for tests. One call builds one independent instance: its own catalog,
// orders, keys, clock offset and timers, all released when the Fastify app closes.
import cookie from '@fastify/cookie'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import type { Clock } from '../clock.js'
import { AccessTokens } from './auth/access-tokens.js'
import { Nonces } from './auth/nonces.js'
import { RefreshTokens } from './auth/refresh-tokens.js'
import { UserStore } from './auth/users.js'
import { Catalog } from './catalog/catalog.js'
import { createClock } from './clock.js'
import type { SandboxContext } from './context.js'
import { createControl, type SandboxControl } from './control.js'
import { installEdge } from './edge.js'
import { badRequest, frameworkError, genericServerError, routeNotFound, UpstreamError } from './envelopes.js'
import { FaultEffects } from './fault-effects.js'
import { FaultQueue } from './faults.js'
import { AUTO_STEP_MS, AutoAdvance } from './orders/auto-advance.js'
import { OrderStore } from './orders/store.js'
import { RequestLog } from './recorder.js'
import { authRoutes } from './routes/auth.js'
import { catalogRoutes } from './routes/catalog.js'
import { controlRoutes } from './routes/control.js'
import { orderRoutes } from './routes/orders.js'
import { streamRoutes } from './routes/stream.js'
import { OrderStreams } from './streams.js'

export type { SandboxControl } from './control.js'
export type { Fault } from './faults.js'
export type { RecordedRequest } from './recorder.js'
export { ROUTE_KEYS, type RouteKey } from './route-keys.js'

export interface SandboxOptions {
  /** Default 'sandbox-tenant-key' (documented, not a secret). */
  tenantKey?: string
  /** SSE idle close, default 60_000. */
  idleCloseMs?: number
  /** The "service's own domain" of the Origin rule, default 'swap.example'. */
  serviceDomain?: string
  /**
   * Demo mode: walk every new order to COMPLETED on the clock, 3 seconds per step by default
   * (`{ stepMs }` sets the step).
   */
  autoAdvance?: boolean | { stepMs: number }
  /** SIWX nonce lifetime, default 5 minutes. */
  nonceTtlMs?: number
  /** Fastify logger, default false. */
  logger?: boolean
  /**
   * The time read and the timers (idle close, demo walk, fault delays, expiry sweep), default the
   * system's; control.advanceTime adds an offset to the time read.
   */
  clock?: Clock
}

/** How often unfunded orders are checked for expiry (reads also check). */
const EXPIRY_SWEEP_MS = 1000

function installParsers(app: FastifyInstance): void {
  // Like an Express body parser: an empty JSON body is no body, and other media types are
  // ignored rather than refused, so their fields are simply missing.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body)
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch (error) {
      done(badRequest((error as Error).message), undefined)
    }
  })
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined))
}

function installErrorRendering(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | UpstreamError, request, reply) => {
    if (error instanceof UpstreamError) return reply.code(error.statusCode).send(error.body)
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send(frameworkError(error.statusCode, error.message).body)
    }
    request.log.error({ err: error }, 'sandbox route failed')
    return reply.code(500).send(genericServerError().body)
  })
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(routeNotFound(request.method, request.url.split('?')[0] ?? request.url))
  })
}

export function buildSandbox(opts: SandboxOptions = {}): { app: FastifyInstance; control: SandboxControl } {
  const app = Fastify({ logger: opts.logger ?? false, exposeHeadRoutes: false, forceCloseConnections: true })
  const clock = createClock(opts.clock)
  const catalog = new Catalog()
  const streams = new OrderStreams(clock, opts.idleCloseMs ?? 60_000)
  let auto: AutoAdvance | undefined
  const orders = new OrderStore(clock, catalog, {
    transition: (order, at) => streams.publish(order.uuid, order.status, at),
    created: (order) => auto?.start(order.uuid),
  })
  if (opts.autoAdvance) {
    auto = new AutoAdvance(orders, clock, opts.autoAdvance === true ? AUTO_STEP_MS : opts.autoAdvance.stepMs)
  }
  const requestLog = new RequestLog()
  const faults = new FaultQueue()
  const effects = new FaultEffects(clock)
  const serviceDomain = opts.serviceDomain ?? 'swap.example'

  const dropsAfter = installEdge(app, { clock, requestLog, faults, effects, serviceDomain })
  const ctx: SandboxContext = {
    tenantKey: opts.tenantKey ?? 'sandbox-tenant-key',
    clock,
    catalog,
    orders,
    streams,
    users: new UserStore(clock),
    accessTokens: new AccessTokens(clock),
    refreshTokens: new RefreshTokens(clock),
    nonces: new Nonces(clock, opts.nonceTtlMs ?? 5 * 60_000),
    requestLog,
    faults,
    switches: { refreshWorks: false },
    dropsAfter,
  }
  const control = createControl(ctx)

  app.register(cookie)
  installParsers(app)
  installErrorRendering(app)
  catalogRoutes(app, ctx)
  orderRoutes(app, ctx)
  streamRoutes(app, ctx)
  authRoutes(app, ctx)
  app.register(controlRoutes(control), { prefix: '/__sandbox' })

  const sweep = clock.setInterval(() => orders.expireDue(), EXPIRY_SWEEP_MS)
  sweep.unref()

  app.addHook('preClose', async () => {
    clock.clearInterval(sweep)
    auto?.stop()
    effects.release()
    streams.close()
  })

  return { app, control }
}
