// buildApp(config): the gateway as one Fastify instance, capabilities registered in the order data
// flows: edge (ids, logs, errors, headers, origin policy, limits) → capabilities → upstream.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { DestinationStream } from 'pino'
import { AllowedOrigins } from './edge/allowed-origins.js'
import { authPlugin } from './auth/plugin.js'
import { RedisRevocations } from './auth/redis-revocations.js'
import { MemoryRevocations } from './auth/revocations.js'
import { sessionCookieFor } from './auth/session.js'
import type { CatalogTuning } from './catalog/cache.js'
import { catalogPlugin } from './catalog/plugin.js'
import { type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { demoPlugin } from './demo/plugin.js'
import { errorTypeBase } from './errors.js'
import { connectionLimits } from './edge/connection-limits.js'
import { cookieSupport } from './edge/cookies.js'
import { draining } from './edge/draining.js'
import { parserErrors } from './edge/parser-errors.js'
import { routerErrors } from './edge/router-errors.js'
import { MAX_PARAM_LENGTH, requestTargetLimit } from './edge/url-limits.js'
import { createLogger } from './edge/logger.js'
import { requestLogging } from './edge/logging.js'
import { originPolicy } from './edge/origin-policy.js'
import { problemHandler } from './edge/problem-handler.js'
import { rateLimits } from './edge/rate-limits.js'
import { requestIdOf } from './edge/request-id.js'
import { declaredRoutes } from './edge/route-answers.js'
import { securityHeaders } from './edge/security-headers.js'
import { liveQuotePlugin } from './live-quote/plugin.js'
import { docsRoutes } from './ops/docs/plugin.js'
import { health } from './ops/health.js'
import { opsEdge } from './ops/plugin.js'
import { MemoryIdempotencyStore } from './orders/idempotency-store.js'
import { ordersPlugin } from './orders/plugin.js'
import { RedisIdempotencyStore } from './orders/redis-idempotency-store.js'
import { type StreamTuning, streamPlugin } from './stream/plugin.js'
import { type ExportTuning, tracingPlugin } from './tracing/plugin.js'
import { DEFAULT_TUNING, type UpstreamTuning } from './upstream/client.js'
import { redisPlugin } from './redis/plugin.js'
import { upstreamPlugin } from './upstream/plugin.js'
import { upstreamReadiness } from './upstream/readiness.js'
import { tenantKeyCheck } from './upstream/tenant-key.js'

export const USER_AGENT = 'swap-gateway/0.1'
/** The version of the public API contract, as the OpenAPI document states it. */
const API_VERSION = '1.0.0'

/** What tests (and server.ts) may swap: time, randomness, the log destination, upstream tunables. */
export interface AppDeps {
  clock?: Clock
  /** Randomness of backoff jitter and retry advice: tests make it exact. */
  random?: () => number
  /** Where log lines go instead of the gateway's own destination: tests read them there. */
  logStream?: DestinationStream
  /** The file descriptor or path the gateway's own destination writes to (standard output by default). */
  logTo?: number | string
  upstreamTuning?: Partial<UpstreamTuning>
  /** Status-stream tunables (reopen backoff, poll interval, buffer limit...): tests shorten them. */
  streamTuning?: Partial<StreamTuning>
  /** Catalog tunables (forced-refresh interval, reload backoff, start-up wait): tests shorten them. */
  catalogTuning?: Partial<CatalogTuning>
  /** Where /metrics listens, overriding config.metricsPort: tests pass 0 for an ephemeral port. */
  metricsPort?: number
  /** Span export tunables (the batch's delay): tests shorten it. */
  exportTuning?: Partial<ExportTuning>
  /** False: no swap-limits call at start-up to check TENANT_API_KEY (tests that count upstream calls). */
  checkTenantKeyAtStart?: boolean
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
  const { logger, close: closeLog } = createLogger(config.logLevel, deps.logStream, deps.logTo)
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Our own one line per request replaces Fastify's two (edge/logging.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdOf,
    // Addresses or ranges only (edge/trusted-proxies.ts): X-Forwarded-For is read from those peers alone.
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    // A request that reaches a closing instance on an open connection is served, with Connection:
    // close (edge/draining.ts): by then the load balancer has stopped sending, so it is a late one.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: routerErrors(
      errorTypeBase(config.publicOrigin, config.apiPrefix),
      config.clientIpHeader,
    ),
    clientErrorHandler: parserErrors(errorTypeBase(config.publicOrigin, config.apiPrefix)),
    ...connectionLimits(config),
  })
  // Read once per request by routeOf (edge/route-group.ts).
  app.decorateRequest('routeConfig', undefined)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.removeContentTypeParser('text/plain')
  // Last of the onClose hooks to run (they run in reverse order), so the shutdown's own lines go out too.
  app.addHook('onClose', (_app, done) => {
    closeLog()
    done()
  })

  // First, so that it sees every route: each must declare what it answers.
  await app.register(declaredRoutes)
  await app.register(tracingPlugin, {
    config: config.tracing,
    upstreamHost: new URL(config.upstreamUrl).host,
    tuning: deps.exportTuning,
  })
  await app.register(requestLogging, { clientIpHeader: config.clientIpHeader })
  await app.register(problemHandler, { apiPrefix: config.apiPrefix, publicOrigin: config.publicOrigin })
  await app.register(draining)
  await app.register(securityHeaders, { https: config.publicOrigin.startsWith('https:') })
  await app.register(cookieSupport)
  await app.register(requestTargetLimit)
  // Right after the security headers (so a refusal carries them too) and before everything else.
  await app.register(originPolicy, {
    origins,
    sessionCookieName: sessionCookieFor(config.publicOrigin).name,
  })
  await app.register(redisPlugin, { url: config.redisUrl, commandTimeoutMs: config.redisCommandTimeoutMs })
  await app.register(rateLimits, {
    limits: config.rateLimits,
    clientIpHeader: config.clientIpHeader,
    clock,
    userOf: (request) => app.sessions.userOf(request),
    redis: app.redis?.client,
  })
  await app.register(opsEdge, {
    apiPrefix: config.apiPrefix,
    apiVersion: API_VERSION,
    publicOrigin: config.publicOrigin,
    metricsPort: deps.metricsPort ?? (config.metricsPort === 0 ? undefined : config.metricsPort),
    metricsHost: config.host,
    sources: {
      breaker: () => app.upstream.breaker.current,
      upstreamQuota: () => app.upstream.quotaStats(),
      catalog: () => app.catalog.stats(),
      streams: () => app.streamHub.stats(),
      quotes: () => app.quoteHub.stats(),
      tenantKeyRefusals: () => app.tenantKey.refusals,
      readiness: () => app.readiness.state(),
      undeclaredProblems: () => app.declaredAnswers.undeclared,
    },
  })
  await app.register(upstreamPlugin, {
    baseUrl: config.upstreamUrl,
    tenantKey: config.tenantApiKey,
    timeoutMs: config.upstreamTimeoutMs,
    tuning: { ...DEFAULT_TUNING, ...deps.upstreamTuning },
    clock,
    random: deps.random,
    userAgent: USER_AGENT,
    observe: app.metrics.observeUpstream,
    refused: app.metrics.refusedUpstream,
    maxRps: config.upstreamMaxRps,
    redis: app.redis?.client,
  })
  await app.register(catalogPlugin, {
    apiPrefix: config.apiPrefix,
    clock,
    random: deps.random,
    ttlMs: config.catalogTtlMs,
    maxStaleMs: config.catalogMaxStaleMs,
    timeoutMs: config.upstreamTimeoutMs,
    tuning: deps.catalogTuning,
  })
  if (deps.checkTenantKeyAtStart !== false)
    await app.register(tenantKeyCheck, { clock, timeoutMs: config.upstreamTimeoutMs })
  await app.register(authPlugin, {
    apiPrefix: config.apiPrefix,
    clock,
    sessionSecrets: config.sessionSecrets,
    publicOrigin: config.publicOrigin,
    revocations: app.redis
      ? new RedisRevocations(app.redis, {
          clock,
          local: new MemoryRevocations(clock),
          // Counted, not logged per request: the Redis link logs the outage once.
          failed: (operation) => app.metrics.revocationFailed(operation),
        })
      : new MemoryRevocations(clock),
    expiryMarginMs: config.sessionExpiryMarginMs,
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
      ? new RedisIdempotencyStore(app.redis, { fallback: new MemoryIdempotencyStore(), log: app.log, clock })
      : new MemoryIdempotencyStore(),
    claimTtlMs: 2 * config.upstreamTimeoutMs,
  })
  await app.register(streamPlugin, {
    apiPrefix: config.apiPrefix,
    clock,
    random: deps.random,
    heartbeatMs: config.sseHeartbeatMs,
    maxPerIp: config.sseMaxPerIp,
    maxTotal: config.sseMaxTotal,
    clientIpHeader: config.clientIpHeader,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    retryMs: config.sseRetryMs,
    drainSpreadMs: config.sseDrainSpreadMs,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    tuning: deps.streamTuning,
  })
  await app.register(liveQuotePlugin, {
    apiPrefix: config.apiPrefix,
    publicOrigin: config.publicOrigin,
    clock,
    guard: app.tokenGuard,
    clientIpHeader: config.clientIpHeader,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    refreshMs: config.quoteRefreshMs,
    maxSilenceMs: config.quoteMaxSilenceMs,
    maxMs: config.quoteStreamMaxMs,
  })
  await app.register(health, {
    checks: () => [
      app.draining.readiness(),
      ...app.catalog.readiness(),
      ...app.tenantKey.readiness(),
      upstreamReadiness(app.upstream, clock, config.catalogTtlMs, config.readinessUpstreamWindowMs),
      ...(app.redis ? [app.redis.readiness()] : []),
    ],
  })
  await app.register(docsRoutes, {
    apiPrefix: config.apiPrefix,
    version: API_VERSION,
    publicOrigin: config.publicOrigin,
  })
  if (sandbox) {
    // Loaded only beside the built-in sandbox: its proxy is a development dependency.
    const { sandboxControls } = await import('./ops/sandbox-controls.js')
    await app.register(sandboxControls, { apiPrefix: config.apiPrefix, sandboxUrl: sandbox.url })
  }
  if (config.demo) {
    // The page's sandbox buttons call the control routes where sandboxControls mounts them.
    const sandboxPath = sandbox ? `${config.apiPrefix}/sandbox` : undefined
    await app.register(demoPlugin, { apiPrefix: config.apiPrefix, sandboxPath })
  }
  return app
}
