// buildApp(config): the gateway as one Fastify instance. Each capability is a plugin that declares the
// plugins and decorators it needs (a wrong order fails at start-up, naming the missing one), takes its
// slice of the configuration (config.ts) and adds its own routes, metrics, readiness members and
// stores. The list reads in the order data flows: what every part reports to and keeps state in, the
// edge every request passes, the upstream client, the capabilities, and what describes them.
import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { DestinationStream } from 'pino'
import { authPlugin } from './auth/plugin.js'
import type { CatalogTuning } from './catalog/cache.js'
import { catalogPlugin } from './catalog/plugin.js'
import { tenantKeyCheck } from './catalog/tenant-key-check.js'
import { type Clock, systemClock } from './clock.js'
import type { AppConfig } from './config.js'
import { demoPlugin } from './demo/plugin.js'
import type { BuiltInSandbox } from './dev/upstream.js'
import { deliveriesPlugin } from './deliveries/plugin.js'
import type { DeliveryTuning } from './deliveries/channel.js'
import { docsRoutes, openapiCollector } from './docs/plugin.js'
import { createLogger } from './edge/logger.js'
import { edge } from './edge/plugin.js'
import { serverOptions } from './edge/server-options.js'
import { liveQuotePlugin } from './live-quote/plugin.js'
import { observability } from './observability/plugin.js'
import { health } from './ops/health.js'
import { ordersPlugin } from './orders/plugin.js'
import { redisPlugin } from './redis/plugin.js'
import { type SseTuning, ssePlugin } from './sse/plugin.js'
import { type SubscriptionTuning, statusStreamPlugin } from './status-stream/plugin.js'
import { type ExportTuning, tracingPlugin } from './tracing/plugin.js'
import type { UpstreamTuning } from './upstream/client.js'
import { upstreamPlugin } from './upstream/plugin.js'
import { type WatchTuning, watchPlugin } from './watch/plugin.js'
import { walletStreamPlugin } from './wallet-stream/plugin.js'
import { webhooksPlugin } from './webhooks/plugin.js'
import type { Resolve } from './push/endpoint-guard.js'
import { pushPlugin } from './push/plugin.js'

export const USER_AGENT = 'swap-gateway/0.1'

/** What tests (and server.ts) may swap: time, randomness, the log destination, tunables. */
export interface AppDeps {
  clock?: Clock
  /** Randomness of backoff jitter and retry advice: tests make it exact. */
  random?: () => number
  /** Where log lines go instead of the gateway's own destination: tests read them there. */
  logStream?: DestinationStream
  /** The file descriptor or path the gateway's own destination writes to (standard output by default). */
  logTo?: number | string
  upstreamTuning?: Partial<UpstreamTuning>
  /** SSE registry tunables (how much a client may leave unread before its stream is dropped). */
  sseTuning?: Partial<SseTuning>
  /** Status-stream tunables (the upstream subscription's reopen backoff, poll interval...): tests shorten them. */
  statusStreamTuning?: Partial<SubscriptionTuning>
  /** Watch tunables (how often it renews its leases and looks for orders to take over): tests shorten them. */
  watchTuning?: Partial<WatchTuning>
  /** Catalog tunables (forced-refresh interval, reload backoff, start-up wait): tests shorten them. */
  catalogTuning?: Partial<CatalogTuning>
  /** Where /metrics listens, overriding METRICS_PORT: tests pass 0 for an ephemeral port. */
  metricsPort?: number
  /** Span export tunables (the batch's delay): tests shorten it. */
  exportTuning?: Partial<ExportTuning>
  /** False: no swap-limits call at start-up to check TENANT_API_KEY (tests that count upstream calls). */
  checkTenantKeyAtStart?: boolean
  /** Delivery tunables (how often due webhooks and pushes are looked for): tests shorten them. */
  deliveryTuning?: Partial<DeliveryTuning>
  /** How push endpoint hosts are resolved: tests answer with the addresses they need. */
  pushResolve?: Resolve
  /** The built-in sandbox, when server.ts started one as the upstream (development only). */
  sandbox?: BuiltInSandbox
}

export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const sandbox = config.env === 'production' ? undefined : deps.sandbox
  const { logger, requestLine, close: closeLog } = createLogger(config.logLevel, deps.logStream, deps.logTo)
  const app = Fastify(serverOptions(config.server, logger))
  app.decorate('clock', deps.clock ?? systemClock)
  app.decorate('random', deps.random ?? Math.random)
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

  // What every part reports to and keeps state in.
  const metricsPort = deps.metricsPort ?? config.observability.port
  await app.register(observability, { ...config.observability, port: metricsPort })
  const upstreamHost = new URL(config.upstream.url).host
  await app.register(tracingPlugin, { config: config.tracing, upstreamHost, tuning: deps.exportTuning })
  await app.register(redisPlugin, config.redis)
  // Every request passes the edge; the OpenAPI collector sees every route registered after it.
  await app.register(edge, { ...config.edge, requestLine })
  await app.register(openapiCollector, config.docs)
  // The upstream the capabilities call, then the capabilities.
  await app.register(upstreamPlugin, {
    ...config.upstream,
    userAgent: USER_AGENT,
    tuning: deps.upstreamTuning,
  })
  await app.register(deliveriesPlugin, { tuning: deps.deliveryTuning })
  await app.register(catalogPlugin, { ...config.catalog, tuning: deps.catalogTuning })
  if (deps.checkTenantKeyAtStart !== false) await app.register(tenantKeyCheck)
  await app.register(authPlugin, { ...config.auth, lapsedUpstream: sandbox?.lapsed })
  await app.register(ordersPlugin, config.orders)
  // Every SSE stream is held in one registry, registered after what the streams use: at close, their
  // drain ends before those close (onClose hooks run in reverse order).
  await app.register(ssePlugin, { ...config.sse, tuning: deps.sseTuning })
  await app.register(statusStreamPlugin, { apiPrefix: config.apiPrefix, tuning: deps.statusStreamTuning })
  await app.register(liveQuotePlugin, config.quotes)
  await app.register(watchPlugin, { ...config.watch, tuning: deps.watchTuning })
  await app.register(walletStreamPlugin, config.wallet)
  if (config.webhooks) await app.register(webhooksPlugin, { ...config.webhooks, userAgent: USER_AGENT })
  await app.register(pushPlugin, {
    apiPrefix: config.apiPrefix,
    push: config.push,
    resolve: deps.pushResolve,
  })
  if (config.env === 'production' && config.redis.url === undefined && (config.webhooks || config.push)) {
    app.log.warn(
      { redis: 'none' },
      'no REDIS_URL: watched orders and pending deliveries live in this process and end with it',
    )
  }
  // What describes and watches them.
  await app.register(health)
  await app.register(docsRoutes, config.docs)
  if (sandbox) {
    // Loaded only beside the built-in sandbox: its proxy is a development dependency.
    const { sandboxControls } = await import('./dev/sandbox-controls.js')
    await app.register(sandboxControls, { apiPrefix: config.apiPrefix, sandboxUrl: sandbox.url })
  }
  if (config.demo) {
    // The page's sandbox buttons call the control routes where sandboxControls mounts them.
    const sandboxPath = sandbox ? `${config.apiPrefix}/sandbox` : undefined
    await app.register(demoPlugin, {
      apiPrefix: config.apiPrefix,
      sandboxPath,
      sourceMaps: config.env !== 'production',
    })
  }
  return app
}
