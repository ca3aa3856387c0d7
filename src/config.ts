// The environment (docs/api.md, "Configuration") parsed once into a typed Config. The only module that reads env.
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { trustedProxies } from './edge/trusted-proxies.js'

export const RATE_LIMIT_GROUPS = [
  'catalog',
  'pricing',
  'create',
  'orders',
  'stream',
  'auth',
  'global',
] as const
export type RateLimitGroup = (typeof RATE_LIMIT_GROUPS)[number]

const rateLimitRule = z.strictObject({
  max: z.int().positive(),
  timeWindow: z.union([z.int().positive(), z.string().regex(/^\d+\s*(ms|second|minute|hour|day)s?$/)]),
  /** Signed-in requests from one IP may reach ipCeiling × max per window (DEFAULT_IP_CEILING when absent). */
  ipCeiling: z.int().positive().optional(),
})
export type RateLimitRule = z.infer<typeof rateLimitRule>

export const DEFAULT_IP_CEILING = 10

export const DEFAULT_RATE_LIMITS: Record<RateLimitGroup, RateLimitRule> = {
  catalog: { max: 600, timeWindow: '1 minute' },
  pricing: { max: 120, timeWindow: '1 minute' },
  create: { max: 10, timeWindow: '1 minute' },
  orders: { max: 300, timeWindow: '1 minute' },
  stream: { max: 30, timeWindow: '1 minute' },
  auth: { max: 20, timeWindow: '1 minute' },
  global: { max: 300, timeWindow: '1 minute' },
}

/**
 * With the built-in sandbox (no UPSTREAM_URL) a developer clicking through flows creates orders far
 * faster than a user would; RATE_LIMITS still overrides it.
 */
export const SANDBOX_CREATE_LIMIT: RateLimitRule = { max: 120, timeWindow: '1 minute' }

const rateLimitOverrides = z.partialRecord(z.enum(RATE_LIMIT_GROUPS), rateLimitRule, {
  // zod reports keys outside the enum as unrecognized; its types for record issues omit that code.
  error: (issue) => {
    const { code, keys } = issue as { code: string; keys?: string[] }
    if (code !== 'unrecognized_keys') return undefined
    return `unknown group ${keys?.map((k) => `"${k}"`).join(', ')}; the groups are ${RATE_LIMIT_GROUPS.join(', ')}`
  },
})

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
  OTEL_TRACES_SAMPLER: z
    .enum([
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ])
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
}

/** The OTLP/HTTP traces URL: the signal-specific endpoint as given, or the general one + /v1/traces. */
function tracesUrl(e: { OTEL_EXPORTER_OTLP_ENDPOINT?: string; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string }) {
  if (e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  if (e.OTEL_EXPORTER_OTLP_ENDPOINT) return `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`
  return undefined
}

const envSchema = z.object({
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
  HEADERS_TIMEOUT_MS: int(10_000, 1),
  REQUEST_TIMEOUT_MS: int(30_000, 1),
  KEEP_ALIVE_TIMEOUT_MS: int(72_000, 1),
  UPSTREAM_MAX_RPS: z.coerce.number().int().positive().optional(),
  SSE_RETRY_MS: int(5_000, 1),
  SSE_DRAIN_SPREAD_MS: int(5_000, 0),
  QUOTE_REFRESH_MS: int(5_000, 1),
  QUOTE_STREAM_MAX_SILENCE_MS: int(30_000, 1),
  QUOTE_STREAM_MAX_MS: int(600_000, 1),
  ...otelSchema,
  DEMO: z.enum(['on', 'off']).optional(),
})

export class ConfigError extends Error {
  override name = 'ConfigError'
}

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
    // The longest gap between quote events is kept by the refreshes: it cannot be shorter than one.
    if (e.QUOTE_STREAM_MAX_SILENCE_MS < e.QUOTE_REFRESH_MS)
      need('QUOTE_STREAM_MAX_SILENCE_MS', 'must not be below QUOTE_REFRESH_MS')
  })
  .transform((e) => {
    const generated = e.SESSION_SECRET.length === 0
    const url = tracesUrl(e)
    const resource = e.OTEL_RESOURCE_ATTRIBUTES
    return {
      env: e.NODE_ENV,
      port: e.PORT,
      host: e.HOST,
      apiPrefix: e.API_PREFIX,
      /** Undefined means "start the built-in sandbox"; server.ts fills it in before buildApp. */
      upstreamUrl: e.UPSTREAM_URL?.replace(/\/+$/, ''),
      tenantApiKey: e.TENANT_API_KEY ?? randomBytes(18).toString('base64url'),
      sessionSecrets: generated ? [randomBytes(32).toString('base64url')] : e.SESSION_SECRET,
      /** True when the secret was made up for this process (development only): sessions die with it. */
      sessionSecretGenerated: generated,
      publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
      allowedOrigins: e.ALLOWED_ORIGINS,
      redisUrl: e.REDIS_URL,
      redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
      trustProxy: e.TRUST_PROXY,
      clientIpHeader: e.CLIENT_IP_HEADER,
      metricsPort: e.METRICS_PORT,
      logLevel: e.LOG_LEVEL,
      upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
      catalogTtlMs: e.CATALOG_TTL_MS,
      catalogMaxStaleMs: e.CATALOG_MAX_STALE_MS,
      /** No upstream answer for this long (two catalog reloads at least) degrades readiness. */
      readinessUpstreamWindowMs: e.READINESS_UPSTREAM_WINDOW_MS,
      sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
      sseMaxPerIp: e.SSE_MAX_PER_IP,
      sseMaxTotal: e.SSE_MAX_TOTAL,
      rateLimits: {
        ...DEFAULT_RATE_LIMITS,
        ...(e.UPSTREAM_URL ? {} : { create: SANDBOX_CREATE_LIMIT }),
        ...e.RATE_LIMITS,
      } as Record<RateLimitGroup, RateLimitRule>,
      /** How long a SIGTERM keeps serving with /readyz at 503 before it drains (ops/shutdown.ts). */
      shutdownReadyDelayMs: e.SHUTDOWN_READY_DELAY_MS,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
      sessionExpiryMarginMs: e.SESSION_EXPIRY_MARGIN_MS,
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      /** Fleet-wide cap on upstream calls per clock second; undefined: no cap. */
      upstreamMaxRps: e.UPSTREAM_MAX_RPS,
      sseRetryMs: e.SSE_RETRY_MS,
      sseDrainSpreadMs: e.SSE_DRAIN_SPREAD_MS,
      quoteRefreshMs: e.QUOTE_REFRESH_MS,
      quoteMaxSilenceMs: e.QUOTE_STREAM_MAX_SILENCE_MS,
      quoteStreamMaxMs: e.QUOTE_STREAM_MAX_MS,
      /** Where spans are exported; undefined: no export (trace context is still propagated). */
      tracing:
        url !== undefined && e.OTEL_SDK_DISABLED !== 'true' && e.OTEL_TRACES_EXPORTER !== 'none'
          ? {
              url,
              headers: { ...e.OTEL_EXPORTER_OTLP_HEADERS, ...e.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
              serviceName: e.OTEL_SERVICE_NAME ?? resource['service.name'] ?? 'swap-gateway',
              resourceAttributes: resource,
              sampler: e.OTEL_TRACES_SAMPLER,
              samplerRatio: e.OTEL_TRACES_SAMPLER_ARG ?? 1,
            }
          : undefined,
      /** The demo app at `/`: on unless DEMO=off, and off in production unless DEMO=on. */
      demo: e.DEMO ? e.DEMO === 'on' : e.NODE_ENV !== 'production',
    }
  })

export type Config = z.output<typeof configSchema>

/** Parses env into Config, or throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = configSchema.safeParse(env)
  if (parsed.success) return parsed.data
  const lines = parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`)
  throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`)
}
