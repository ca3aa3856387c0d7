// The environment (docs/configuration.md) parsed once into a typed Config. The only module that reads env.
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { ConfigError, errorTypeBase } from './errors.js'
import {
  DEFAULT_RATE_LIMITS,
  type RateLimitGroup,
  type RateLimitRule,
  rateLimitOverrides,
  SANDBOX_CREATE_LIMIT,
} from './edge/rate-limit-rules.js'
import { trustedProxies } from './edge/trusted-proxies.js'
import type { PushConfig } from './push/plugin.js'
import { generateVapidKeys, vapidSigningKey } from './push/vapid-keys.js'
import { samplerNames, type TracingConfig } from './tracing/otel.js'

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback)
const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
const origin = z.url({ protocol: /^https?$/ }).transform((u) => new URL(u).origin)

const json = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return undefined
      try {
        return JSON.parse(text) as unknown
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' })
        return z.NEVER
      }
    })
    .pipe(schema.optional())

/** `key=value,key=value` with URL-encoded values: the W3C Baggage-like lists of the OTEL_* variables. */
const keyValues = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const pairs: Record<string, string> = {}
    for (const item of (text ?? '').split(',')) {
      if (item.trim() === '') continue
      const at = item.indexOf('=')
      const key = item.slice(0, at).trim()
      if (at < 1 || key === '') {
        ctx.addIssue({ code: 'custom', message: 'must be a list of key=value pairs' })
        return z.NEVER
      }
      try {
        pairs[key] = decodeURIComponent(item.slice(at + 1).trim())
      } catch {
        ctx.addIssue({ code: 'custom', message: `the value of ${key} is not URL-encoded text` })
        return z.NEVER
      }
    }
    return pairs
  })

/** A webhook secret: `whsec_` and the base64 of 24 to 64 random bytes (the Standard Webhooks form). */
const webhookSecret = z.string().refine((secret) => {
  const body = secret.startsWith('whsec_') ? secret.slice(6) : ''
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return false
  const bytes = Buffer.from(body, 'base64').length
  return bytes >= 24 && bytes <= 64
}, 'each secret must be whsec_ followed by the base64 of 24 to 64 random bytes')

/** Milliseconds as a JSON array or comma-separated: `[5000,300000]` or `5000,300000`. */
const delays = (fallback: number[]) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return fallback
      const items = text.replace(/^\s*\[|\]\s*$/g, '').split(',')
      const values = items.map((item) => Number(item.trim()))
      if (values.some((v) => !Number.isInteger(v) || v < 0) || items.some((i) => i.trim() === '')) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a list of delays in milliseconds, such as [5000,300000]',
        })
        return z.NEVER
      }
      return values
    })

/** OpenTelemetry's standard variables, as far as the gateway's trace export uses them. */
const otelSchema = {
  OTEL_SDK_DISABLED: z.enum(['true', 'false', '']).optional(),
  OTEL_TRACES_EXPORTER: z
    .enum(['otlp', 'none', ''], { error: 'the gateway exports traces with otlp (or none)' })
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/json', ''], { error: 'the gateway exports OTLP over HTTP as JSON: http/json' })
    .optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z
    .enum(['http/json', ''], { error: 'the gateway exports OTLP over HTTP as JSON: http/json' })
    .optional(),
  OTEL_EXPORTER_OTLP_HEADERS: keyValues,
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: keyValues,
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: keyValues,
  OTEL_TRACES_SAMPLER: samplerNames.default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
}

/** Where spans are exported (the OTLP/HTTP traces URL: the signal's own endpoint, or the general one +
 * /v1/traces); undefined: no export (trace context is still propagated). */
function tracingOf(e: {
  OTEL_SDK_DISABLED?: string
  OTEL_TRACES_EXPORTER?: string
  OTEL_EXPORTER_OTLP_ENDPOINT?: string
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string
  OTEL_EXPORTER_OTLP_HEADERS: Record<string, string>
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: Record<string, string>
  OTEL_SERVICE_NAME?: string
  OTEL_RESOURCE_ATTRIBUTES: Record<string, string>
  OTEL_TRACES_SAMPLER: TracingConfig['sampler']
  OTEL_TRACES_SAMPLER_ARG?: number
}): TracingConfig | undefined {
  const general = e.OTEL_EXPORTER_OTLP_ENDPOINT
  const url =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (general ? `${general.replace(/\/+$/, '')}/v1/traces` : undefined)
  if (url === undefined || e.OTEL_SDK_DISABLED === 'true' || e.OTEL_TRACES_EXPORTER === 'none')
    return undefined
  const resource = e.OTEL_RESOURCE_ATTRIBUTES
  return {
    url,
    headers: { ...e.OTEL_EXPORTER_OTLP_HEADERS, ...e.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    serviceName: e.OTEL_SERVICE_NAME ?? resource['service.name'] ?? 'swap-gateway',
    resourceAttributes: resource,
    sampler: e.OTEL_TRACES_SAMPLER,
    samplerRatio: e.OTEL_TRACES_SAMPLER_ARG ?? 1,
  }
}

/**
 * Web Push (VAPID keys and subject, message lifetime, subscriptions per order, which endpoints are
 * admitted). Outside production a missing pair is made up for this process; in production Web Push is
 * off (undefined) unless keys and subject are all set.
 */
function webPushOf(
  e: {
    WEB_PUSH_PUBLIC_KEY?: string
    WEB_PUSH_PRIVATE_KEY?: string
    WEB_PUSH_SUBJECT?: string
    WEB_PUSH_TTL_S: number
    WEB_PUSH_MAX_PER_ORDER: number
    WEB_PUSH_ALLOW_LOCAL_ENDPOINTS?: 'true' | 'false'
  },
  production: boolean,
): PushConfig | undefined {
  const given =
    e.WEB_PUSH_PUBLIC_KEY && e.WEB_PUSH_PRIVATE_KEY
      ? { publicKey: e.WEB_PUSH_PUBLIC_KEY, privateKey: e.WEB_PUSH_PRIVATE_KEY }
      : undefined
  if (production && (!given || !e.WEB_PUSH_SUBJECT)) return undefined
  return {
    keys: given ?? generateVapidKeys(),
    keysGenerated: !given,
    /** Outside production, a contact that names no one: push services accept it from local tests. */
    subject: e.WEB_PUSH_SUBJECT ?? 'mailto:web-push@localhost',
    ttlS: e.WEB_PUSH_TTL_S,
    maxPerOrder: e.WEB_PUSH_MAX_PER_ORDER,
    allowLocalEndpoints: (e.WEB_PUSH_ALLOW_LOCAL_ENDPOINTS ?? String(!production)) === 'true',
  }
}

/** Every variable the gateway reads. Each has its meaning in src/config/settings.ts, which the settings
 * tables of docs/ are generated from (`npm run docs:tables`); a default given here is the documented one. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(3000).refine((p) => p <= 65535, 'must be a port number'),
  HOST: z.string().min(1).default('0.0.0.0'),
  API_PREFIX: z
    .string()
    .regex(/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/, 'must look like /api')
    .default('/api'),
  UPSTREAM_URL: z.url({ protocol: /^https?$/ }).optional(),
  TENANT_API_KEY: z.string().min(1).optional(),
  SESSION_SECRET: list.pipe(z.array(z.string().min(32, 'each secret needs at least 32 characters'))),
  PUBLIC_ORIGIN: origin.optional(),
  ALLOWED_ORIGINS: list.pipe(z.array(origin)),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .refine((u) => /^\/?\d*$/.test(new URL(u).pathname), 'its path must be a database number, such as /0')
    .optional(),
  REDIS_COMMAND_TIMEOUT_MS: int(250, 1),
  TRUST_PROXY: trustedProxies,
  CLIENT_IP_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
    .transform((h) => h.toLowerCase())
    .optional(),
  METRICS_PORT: int(9091).refine((p) => p <= 65535, 'must be a port number'),
  METRICS_HOST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UPSTREAM_TIMEOUT_MS: int(10_000, 1),
  CATALOG_TTL_MS: int(300_000, 1),
  CATALOG_MAX_STALE_MS: int(86_400_000, 0),
  READINESS_UPSTREAM_WINDOW_MS: int(60_000, 1),
  SSE_HEARTBEAT_MS: int(15_000, 1),
  SSE_MAX_PER_IP: int(20, 1),
  SSE_MAX_TOTAL: int(10_000, 1),
  RATE_LIMITS: json(rateLimitOverrides),
  SHUTDOWN_READY_DELAY_MS: int(5_000, 0),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 1),
  SESSION_EXPIRY_MARGIN_MS: int(60_000, 0),
  SIWX_ALLOW_BARE_MESSAGES: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  HEADERS_TIMEOUT_MS: int(10_000, 1),
  REQUEST_TIMEOUT_MS: int(30_000, 1),
  KEEP_ALIVE_TIMEOUT_MS: int(72_000, 1),
  UPSTREAM_MAX_RPS: z.coerce.number().int().positive().optional(),
  SSE_RETRY_MS: int(5_000, 1),
  SSE_DRAIN_SPREAD_MS: int(5_000, 0),
  QUOTE_REFRESH_MS: int(5_000, 1),
  QUOTE_STREAM_MAX_SILENCE_MS: int(30_000, 1),
  QUOTE_STREAM_MAX_MS: int(600_000, 1),
  WATCH_MAX_MS: int(86_400_000, 1),
  WATCH_LEASE_MS: int(15_000, 1_000),
  WALLET_EVENTS_RETAIN_MS: int(3_600_000, 1),
  WEBHOOK_URLS: list.pipe(
    z.array(z.url({ protocol: /^https?$/, error: 'each must be an absolute http or https URL' })),
  ),
  WEBHOOK_SECRET: list.pipe(z.array(webhookSecret)),
  WEBHOOK_TIMEOUT_MS: int(15_000, 1),
  WEBHOOK_RETRY_SCHEDULE_MS: delays([
    5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
  ]),
  WEB_PUSH_PUBLIC_KEY: z.string().min(1).optional(),
  WEB_PUSH_PRIVATE_KEY: z.string().min(1).optional(),
  WEB_PUSH_SUBJECT: z
    .string()
    .regex(/^(mailto:.+|https:\/\/.+)$/, 'must be a mailto: or https: URL')
    .optional(),
  WEB_PUSH_TTL_S: int(86_400, 0),
  WEB_PUSH_MAX_PER_ORDER: int(5, 1),
  WEB_PUSH_ALLOW_LOCAL_ENDPOINTS: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  ...otelSchema,
  DEMO: z.enum(['on', 'off']).optional(),
})

export type EnvVariable = keyof typeof envSchema.shape
export type OtelVariable = keyof typeof otelSchema

const configSchema = envSchema
  .superRefine((e, ctx) => {
    const production = e.NODE_ENV === 'production'
    const need = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    if (production && !e.UPSTREAM_URL) need('UPSTREAM_URL', 'is required in production (no sandbox there)')
    if (e.UPSTREAM_URL && !e.TENANT_API_KEY) need('TENANT_API_KEY', 'is required with UPSTREAM_URL')
    if (production && e.SESSION_SECRET.length === 0) need('SESSION_SECRET', 'is required in production')
    // Sign-in messages, problem `type` URIs and the origin policy all name it: no localhost guess.
    if (production && !e.PUBLIC_ORIGIN)
      need(
        'PUBLIC_ORIGIN',
        'is required in production (the origin browsers use, such as https://app.example)',
      )
    // Node refuses a head deadline past the whole request's.
    if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS)
      need('HEADERS_TIMEOUT_MS', 'must not be above REQUEST_TIMEOUT_MS')
    // Unsigned events, or secrets that sign for nobody: either is a half-done set-up.
    if (e.WEBHOOK_URLS.length > 0 && e.WEBHOOK_SECRET.length === 0)
      need('WEBHOOK_SECRET', 'is required with WEBHOOK_URLS (the whsec_ secrets that sign the events)')
    if (e.WEBHOOK_SECRET.length > 0 && e.WEBHOOK_URLS.length === 0)
      need('WEBHOOK_URLS', 'is required with WEBHOOK_SECRET (where the signed events go)')
    // The longest gap between quote events is kept by the refreshes: it cannot be shorter than one.
    if (e.QUOTE_STREAM_MAX_SILENCE_MS < e.QUOTE_REFRESH_MS)
      need('QUOTE_STREAM_MAX_SILENCE_MS', 'must not be below QUOTE_REFRESH_MS')
    const { WEB_PUSH_PUBLIC_KEY: publicKey, WEB_PUSH_PRIVATE_KEY: privateKey } = e
    if ((publicKey === undefined) !== (privateKey === undefined))
      need(publicKey ? 'WEB_PUSH_PRIVATE_KEY' : 'WEB_PUSH_PUBLIC_KEY', 'is required with the other VAPID key')
    else if (publicKey && privateKey && !vapidSigningKey({ publicKey, privateKey }))
      need('WEB_PUSH_PRIVATE_KEY', 'is not the private key of WEB_PUSH_PUBLIC_KEY (a P-256 pair, base64url)')
  })
  .transform((e) => {
    const generated = e.SESSION_SECRET.length === 0
    const production = e.NODE_ENV === 'production'
    const site = {
      apiPrefix: e.API_PREFIX,
      /** The origin browsers use: sign-in messages, problem `type` URIs and the origin policy name it. */
      publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
    }
    // One slice per plugin, each holding every setting that plugin reads (docs/configuration.md).
    return {
      env: e.NODE_ENV,
      port: e.PORT,
      host: e.HOST,
      logLevel: e.LOG_LEVEL,
      ...site,
      /** The demo app at `/`: on unless DEMO=off, and off in production unless DEMO=on. */
      demo: e.DEMO ? e.DEMO === 'on' : !production,
      /** METRICS_PORT 0 turns /metrics off; METRICS_HOST 127.0.0.1 keeps the internal port on the machine. */
      observability: {
        port: e.METRICS_PORT === 0 ? undefined : e.METRICS_PORT,
        host: e.METRICS_HOST ?? e.HOST,
        errorTypeBase: errorTypeBase(site.publicOrigin, site.apiPrefix),
      },
      tracing: tracingOf(e),
      redis: { url: e.REDIS_URL, commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS },
      upstream: {
        /** Undefined: `npm start` runs the built-in sandbox (server.ts), which `withUpstream` names. */
        url: e.UPSTREAM_URL?.replace(/\/+$/, ''),
        tenantKey: e.TENANT_API_KEY ?? randomBytes(18).toString('base64url'),
        timeoutMs: e.UPSTREAM_TIMEOUT_MS,
        /** Fleet-wide cap on upstream calls per clock second; undefined: no cap. */
        maxRps: e.UPSTREAM_MAX_RPS,
        /** No upstream answer for this long (two catalog reloads at least) degrades readiness. */
        readinessWindowMs: Math.max(e.READINESS_UPSTREAM_WINDOW_MS, 2 * e.CATALOG_TTL_MS),
      },
      /** What Fastify's constructor takes (edge/server-options.ts). */
      server: {
        ...site,
        trustProxy: e.TRUST_PROXY,
        headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
        requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      },
      edge: {
        ...site,
        clientIpHeader: e.CLIENT_IP_HEADER,
        allowedOrigins: e.ALLOWED_ORIGINS,
        /** Loopback dev servers may call a development gateway. */
        loopbackDevServers: !production,
        rateLimits: {
          ...DEFAULT_RATE_LIMITS,
          ...(e.UPSTREAM_URL ? {} : { create: SANDBOX_CREATE_LIMIT }),
          ...e.RATE_LIMITS,
        } as Record<RateLimitGroup, RateLimitRule>,
      },
      catalog: { apiPrefix: site.apiPrefix, ttlMs: e.CATALOG_TTL_MS, maxStaleMs: e.CATALOG_MAX_STALE_MS },
      auth: {
        ...site,
        /** SESSION_SECRET as a list: the first seals, all unseal. */
        sessionSecrets: generated ? [randomBytes(32).toString('base64url')] : e.SESSION_SECRET,
        /** True when the secret was made up for this process (development only): sessions die with it. */
        sessionSecretGenerated: generated,
        expiryMarginMs: e.SESSION_EXPIRY_MARGIN_MS,
        allowBareMessages: e.SIWX_ALLOW_BARE_MESSAGES,
      },
      orders: { ...site, claimTtlMs: 2 * e.UPSTREAM_TIMEOUT_MS },
      sse: {
        heartbeatMs: e.SSE_HEARTBEAT_MS,
        maxPerIp: e.SSE_MAX_PER_IP,
        maxTotal: e.SSE_MAX_TOTAL,
        retryMs: e.SSE_RETRY_MS,
        drainSpreadMs: e.SSE_DRAIN_SPREAD_MS,
        shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
      },
      quotes: {
        ...site,
        refreshMs: e.QUOTE_REFRESH_MS,
        maxSilenceMs: e.QUOTE_STREAM_MAX_SILENCE_MS,
        maxMs: e.QUOTE_STREAM_MAX_MS,
      },
      watch: { maxMs: e.WATCH_MAX_MS, leaseMs: e.WATCH_LEASE_MS },
      wallet: { apiPrefix: site.apiPrefix, retainMs: e.WALLET_EVENTS_RETAIN_MS },
      push: webPushOf(e, production),
      docs: site,
      /** Undefined: no webhooks (WEBHOOK_URLS unset). */
      webhooks:
        e.WEBHOOK_URLS.length === 0
          ? undefined
          : {
              urls: e.WEBHOOK_URLS,
              secrets: e.WEBHOOK_SECRET,
              timeoutMs: e.WEBHOOK_TIMEOUT_MS,
              scheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
            },
      /** How long a SIGTERM keeps serving with /readyz at 503 before it drains, and its deadline (ops/shutdown.ts). */
      shutdown: { readyDelayMs: e.SHUTDOWN_READY_DELAY_MS, timeoutMs: e.SHUTDOWN_TIMEOUT_MS },
    }
  })

export type Config = z.output<typeof configSchema>

/** A configuration whose upstream is known: what buildApp takes. */
export type AppConfig = Config & { upstream: { url: string } }

/** The configuration with the upstream server.ts started (the built-in sandbox) when none was set. */
export const withUpstream = (config: Config, url: string): AppConfig => ({
  ...config,
  upstream: { ...config.upstream, url },
})

/**
 * Parses env into Config, or throws a ConfigError naming every bad variable. With UPSTREAM_URL given
 * (it is then a URL, or this throws), the configuration is one buildApp takes as it is.
 */
export function loadConfig<E extends NodeJS.ProcessEnv>(
  env: E,
): E extends { UPSTREAM_URL: string } ? AppConfig : Config {
  const parsed = configSchema.safeParse(env)
  if (parsed.success) return parsed.data as AppConfig
  const lines = parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`)
  throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`)
}
