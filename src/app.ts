// buildApp(config): the gateway as one Fastify instance, capabilities registered in the order data
// flows: edge (ids, logs, errors, headers, origin policy, limits) → capabilities → upstream.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { DestinationStream } from 'pino'
import pino from 'pino'
import { AllowedOrigins } from './auth/allowed-origins.js'
import { originPolicy } from './auth/origin-policy.js'
import { authPlugin } from './auth/plugin.js'
import { sessionCookieFor } from './auth/session.js'
import type { CatalogTuning } from './catalog/cache.js'
import { catalogPlugin } from './catalog/plugin.js'
import { type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { demoPlugin } from './demo/plugin.js'
import { draining } from './edge/draining.js'
import { logDestination, REDACT_PATHS, requestLogging } from './edge/logging.js'
import { problems } from './edge/problems.js'
import { requestIdOf } from './edge/request-id.js'
import { securityHeaders } from './edge/security-headers.js'
import { docsRoutes } from './ops/docs/plugin.js'
import { health } from './ops/health.js'
import { opsEdge } from './ops/plugin.js'
import { sandboxControls } from './ops/sandbox-controls.js'
import { MemoryIdempotencyStore } from './orders/idempotency-store.js'
import { ordersPlugin } from './orders/plugin.js'
import { RedisIdempotencyStore } from './orders/redis-idempotency-store.js'
import { type StreamTuning, streamPlugin } from './stream/plugin.js'
import { DEFAULT_TUNING, type UpstreamTuning } from './upstream/client.js'
import { upstreamPlugin } from './upstream/plugin.js'

export const USER_AGENT = 'swap-gateway/0.1'
/** The version of the public API contract, as the OpenAPI document states it. */
const API_VERSION = '1.0.0'
/**
 * The upstream counts as reached when it answered within this window. An idle gateway calls it only
 * when the catalog reloads (every CATALOG_TTL_MS), so the window spans two reloads: otherwise an idle
 * instance would leave the load balancer a minute after its last request.
 */
const READY_UPSTREAM_WINDOW_MS = 60_000
const readyWindowMs = (catalogTtlMs: number) => Math.max(READY_UPSTREAM_WINDOW_MS, 2 * catalogTtlMs)

/** What tests (and server.ts) may swap: time, randomness, the log destination, upstream tunables. */
export interface AppDeps {
  clock?: Clock
  logStream?: DestinationStream
  upstreamTuning?: Partial<UpstreamTuning>
  /** Status-stream tunables (reopen backoff, poll interval, retry advice...): tests shorten them. */
  streamTuning?: Partial<StreamTuning>
  /** Catalog tunables (forced-refresh interval, reload backoff, start-up wait): tests shorten them. */
  catalogTuning?: Partial<CatalogTuning>
  /** Where /metrics listens, overriding config.metricsPort: tests pass 0 for an ephemeral port. */
  metricsPort?: number
  /** The built-in sandbox, when server.ts started one as the upstream (development only). */
  sandbox?: BuiltInSandbox
}

export interface BuiltInSandbox {
  /** Where it listens: its control routes are mounted at `${apiPrefix}/sandbox/…`. */
  url: string
  /**
   * Whether it has lapsed this access token before its `exp` (its session-lapse control), so the
   * gateway, which reads a session's expiry from the token, sees the lapse at once.
   */
  lapsed(accessToken: string): boolean
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  if (!config.upstreamUrl) throw new Error('buildApp needs config.upstreamUrl (server.ts starts the sandbox)')
  const clock = deps.clock ?? systemClock
  const production = config.env === 'production'
  const sandbox = production ? undefined : deps.sandbox
  const origins = new AllowedOrigins({
    publicOrigin: config.publicOrigin,
    allowedOrigins: config.allowedOrigins,
    loopbackDevServers: !production,
  })
  const logger = pino(
    { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    deps.logStream ?? logDestination(1),
  )
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Our own one line per request replaces Fastify's two (edge/logging.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdOf,
    // Fastify accepts a hop count here, though its type omits it.
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: 64 * 1024,
    // Replaced by the draining plugin, whose 503 is a problem document.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
  })
  // Read once per request by routeOf (edge/route-group.ts).
  app.decorateRequest('routeConfig', undefined)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.removeContentTypeParser('text/plain')

  await app.register(requestLogging)
  await app.register(problems, { apiPrefix: config.apiPrefix, publicOrigin: config.publicOrigin })
  await app.register(draining)
  await app.register(securityHeaders, { https: config.publicOrigin.startsWith('https:') })
  // Right after the security headers (so a refusal carries them too) and before everything else.
  await app.register(originPolicy, {
    origins,
    sessionCookieName: sessionCookieFor(config.publicOrigin).name,
  })
  await app.register(opsEdge, {
    config,
    metricsPort: deps.metricsPort ?? (config.metricsPort === 0 ? undefined : config.metricsPort),
    apiVersion: API_VERSION,
    sources: {
      breaker: () => app.upstream.breaker.current,
      catalog: () => app.catalog.stats(),
      streams: () => app.streamHub.stats(),
    },
  })
  await app.register(upstreamPlugin, {
    baseUrl: config.upstreamUrl,
    tenantKey: config.tenantApiKey,
    timeoutMs: config.upstreamTimeoutMs,
    tuning: { ...DEFAULT_TUNING, ...deps.upstreamTuning },
    clock,
    userAgent: USER_AGENT,
    observe: app.metrics.observeUpstream,
  })
  await app.register(catalogPlugin, {
    apiPrefix: config.apiPrefix,
    clock,
    ttlMs: config.catalogTtlMs,
    maxStaleMs: config.catalogMaxStaleMs,
    timeoutMs: config.upstreamTimeoutMs,
    tuning: deps.catalogTuning,
  })
  await app.register(authPlugin, {
    apiPrefix: config.apiPrefix,
    clock,
    sessionSecrets: config.sessionSecrets,
    publicOrigin: config.publicOrigin,
    origins,
    ...(sandbox ? { lapsedUpstream: sandbox.lapsed } : {}),
  })
  await app.register(ordersPlugin, {
    apiPrefix: config.apiPrefix,
    publicOrigin: config.publicOrigin,
    clock,
    guard: app.tokenGuard,
    credentials: app.sessions,
    idempotency: app.redis
      ? new RedisIdempotencyStore(app.redis.client, { fallback: new MemoryIdempotencyStore(), log: app.log })
      : new MemoryIdempotencyStore(),
    claimTtlMs: 2 * config.upstreamTimeoutMs,
  })
  await app.register(streamPlugin, {
    apiPrefix: config.apiPrefix,
    clock,
    heartbeatMs: config.sseHeartbeatMs,
    maxPerIp: config.sseMaxPerIp,
    maxTotal: config.sseMaxTotal,
    clientIpHeader: config.clientIpHeader,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    tuning: deps.streamTuning,
  })
  await app.register(health, {
    checks: () => [
      { name: 'catalog', problem: () => app.catalog.readiness() },
      {
        name: 'upstream',
        problem: () =>
          clock.now() - app.upstream.lastAnswerAt < readyWindowMs(config.catalogTtlMs)
            ? undefined
            : 'no upstream answer recently',
      },
      ...(app.redis ? [app.redis.readiness()] : []),
    ],
  })
  await app.register(docsRoutes, { apiPrefix: config.apiPrefix, version: API_VERSION })
  if (sandbox) await app.register(sandboxControls, { apiPrefix: config.apiPrefix, sandboxUrl: sandbox.url })
  if (config.demo) {
    // The page's sandbox buttons call the control routes where sandboxControls mounts them.
    const sandboxPath = sandbox ? `${config.apiPrefix}/sandbox` : undefined
    await app.register(demoPlugin, { apiPrefix: config.apiPrefix, sandboxPath })
  }
  return app
}
