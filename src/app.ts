// buildApp(config): the gateway as one Fastify instance, capabilities registered in the order data
// flows: edge (ids, logs, errors, headers, origin policy, limits) → capabilities → upstream.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { DestinationStream } from 'pino'
import pino from 'pino'
import { type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { REDACT_PATHS, requestLogging } from './edge/logging.js'
import { problems } from './edge/problems.js'
import { requestIdOf } from './edge/request-id.js'
import { securityHeaders } from './edge/security-headers.js'
import { authPlugin } from './auth/plugin.js'
import { catalogPlugin } from './catalog/plugin.js'
import { health } from './ops/health.js'
import { MemoryIdempotencyStore } from './orders/idempotency-store.js'
import { ordersPlugin } from './orders/plugin.js'
import { DEFAULT_TUNING, type UpstreamTuning } from './upstream/client.js'
import { upstreamPlugin } from './upstream/plugin.js'

export const USER_AGENT = 'swap-gateway/0.1'
/** The upstream counts as reached when it answered within this window. */
const READY_UPSTREAM_WINDOW_MS = 60_000

/** What tests (and server.ts) may swap: time, randomness, the log destination, upstream tunables. */
export interface AppDeps {
  clock?: Clock
  logStream?: DestinationStream
  upstreamTuning?: Partial<UpstreamTuning>
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  if (!config.upstreamUrl) throw new Error('buildApp needs config.upstreamUrl (server.ts starts the sandbox)')
  const clock = deps.clock ?? systemClock
  const logger = pino(
    { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    deps.logStream ?? pino.destination(1),
  )
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    disableRequestLogging: true,
    genReqId: requestIdOf,
    requestIdLogLabel: 'requestId',
    // Fastify accepts a hop count here, though its type omits it.
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.removeContentTypeParser('text/plain')

  await app.register(requestLogging)
  await app.register(problems, { apiPrefix: config.apiPrefix })
  await app.register(securityHeaders, { https: config.publicOrigin.startsWith('https:') })
  await app.register(upstreamPlugin, {
    baseUrl: config.upstreamUrl,
    tenantKey: config.tenantApiKey,
    timeoutMs: config.upstreamTimeoutMs,
    tuning: { ...DEFAULT_TUNING, ...deps.upstreamTuning },
    clock,
    userAgent: USER_AGENT,
  })
  await app.register(catalogPlugin)
  await app.register(authPlugin)
  await app.register(ordersPlugin, {
    apiPrefix: config.apiPrefix,
    clock,
    guard: app.tokenGuard,
    credentials: app.sessions,
    idempotency: new MemoryIdempotencyStore(),
    claimTtlMs: 2 * config.upstreamTimeoutMs,
  })
  await app.register(health, {
    checks: () => [
      {
        name: 'upstream',
        problem: () =>
          clock.now() - app.upstream.lastAnswerAt < READY_UPSTREAM_WINDOW_MS ? undefined : 'no upstream answer recently',
      },
    ],
  })
  return app
}
