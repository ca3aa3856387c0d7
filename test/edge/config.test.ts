import t from 'tap'
import { loadConfig } from '../../src/config.js'
import { ConfigError } from '../../src/errors.js'

const secret = 's'.repeat(32)

t.test('defaults follow the documented configuration', async (t) => {
  const c = loadConfig({})
  t.match(c, {
    port: 3000,
    host: '0.0.0.0',
    apiPrefix: '/api',
    publicOrigin: 'http://localhost:3000',
    observability: { port: 9091 },
    upstream: { url: undefined, timeoutMs: 10_000, readinessWindowMs: 600_000 },
    catalog: { ttlMs: 300_000, maxStaleMs: 86_400_000 },
    sse: { heartbeatMs: 15_000, maxPerIp: 20, maxTotal: 10_000, retryMs: 5_000, drainSpreadMs: 5_000 },
    auth: { sessionSecretGenerated: true },
    tracing: undefined,
  })
})

t.test('a bad value stops start-up with a message naming the variable', async (t) => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ UPSTREAM_URL: 'not a url' }, /UPSTREAM_URL/],
    [{ UPSTREAM_URL: 'http://up.example' }, /TENANT_API_KEY/],
    [{ SESSION_SECRET: 'short' }, /SESSION_SECRET/],
    [{ PUBLIC_ORIGIN: 'ftp://x' }, /PUBLIC_ORIGIN/],
    [{ ALLOWED_ORIGINS: 'https://ok.example,nope' }, /ALLOWED_ORIGINS/],
    [{ RATE_LIMITS: '{"create":' }, /RATE_LIMITS/],
    [{ RATE_LIMITS: '{"everything":{"max":1,"timeWindow":"1 minute"}}' }, /RATE_LIMITS/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SSE_HEARTBEAT_MS: '0' }, /SSE_HEARTBEAT_MS/],
    [{ UPSTREAM_MAX_RPS: '0' }, /UPSTREAM_MAX_RPS/],
    [{ UPSTREAM_MAX_RPS: '2.5' }, /UPSTREAM_MAX_RPS/],
    [{ RATE_LIMITS: '{"create":{"max":5,"timeWindow":"1 minute","ipCeiling":0}}' }, /RATE_LIMITS/],
    [{ SSE_RETRY_MS: '0' }, /SSE_RETRY_MS/],
    [{ SSE_DRAIN_SPREAD_MS: '-1' }, /SSE_DRAIN_SPREAD_MS/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT/],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /OTEL_EXPORTER_OTLP_PROTOCOL: .*http\/json/],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' }, /OTEL_EXPORTER_OTLP_HEADERS/],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER/],
    [{ OTEL_TRACES_SAMPLER_ARG: '2' }, /OTEL_TRACES_SAMPLER_ARG/],
  ]
  for (const [env, re] of cases)
    t.throws(() => loadConfig(env), { name: 'ConfigError', message: re }, JSON.stringify(env))
})

t.test('production refuses the sandbox and a generated secret', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), {
    message: /UPSTREAM_URL[\s\S]*SESSION_SECRET[\s\S]*PUBLIC_ORIGIN: is required in production/,
  })
  const ok = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_ORIGIN: 'https://app.example',
    UPSTREAM_URL: 'https://up.example/api/',
    TENANT_API_KEY: 'k',
    SESSION_SECRET: `${secret},${'t'.repeat(40)}`,
  })
  t.equal(ok.upstream.url, 'https://up.example/api')
  t.equal(ok.auth.sessionSecrets.length, 2)
  t.type(new ConfigError('x'), Error)
})

t.test(
  'with the built-in sandbox the create limit is relaxed, unless RATE_LIMITS says otherwise',
  async (t) => {
    t.same(loadConfig({}).edge.rateLimits.create, { max: 120, timeWindow: '1 minute' })
    const upstream = { UPSTREAM_URL: 'https://swap.example', TENANT_API_KEY: 'k' }
    t.same(loadConfig(upstream).edge.rateLimits.create, { max: 10, timeWindow: '1 minute' })
    const overridden = loadConfig({ RATE_LIMITS: '{"create":{"max":3,"timeWindow":"1 minute"}}' })
    t.same(overridden.edge.rateLimits.create, { max: 3, timeWindow: '1 minute' })
  },
)

t.test('RATE_LIMITS overrides one group and keeps the others', async (t) => {
  const c = loadConfig({ RATE_LIMITS: '{"create":{"max":20,"timeWindow":"1 minute"}}' })
  t.same(c.edge.rateLimits.create, { max: 20, timeWindow: '1 minute' })
  t.ok(c.edge.rateLimits.catalog.max > 20)
})

t.test('RATE_LIMITS takes an ipCeiling; UPSTREAM_MAX_RPS is off unless set', async (t) => {
  const c = loadConfig({
    RATE_LIMITS: '{"create":{"max":20,"timeWindow":"1 minute","ipCeiling":10}}',
    UPSTREAM_MAX_RPS: '25',
  })
  t.same(c.edge.rateLimits.create, { max: 20, timeWindow: '1 minute', ipCeiling: 10 })
  t.equal(c.upstream.maxRps, 25)
  t.equal(loadConfig({}).upstream.maxRps, undefined)
})

t.test(
  "tracing is configured by OpenTelemetry's standard variables, and off without an endpoint",
  async (t) => {
    t.match(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing, {
      url: 'http://collector:4318/v1/traces',
      serviceName: 'swap-gateway',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    })
    const full = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp/v1/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-team=swaps,authorization=Basic%20abc',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=gateway',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment=staging',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    }).tracing
    t.same(full, {
      url: 'https://traces.example/otlp/v1/traces',
      headers: { 'x-team': 'gateway', authorization: 'Basic abc' },
      serviceName: 'from-attributes',
      resourceAttributes: { 'service.name': 'from-attributes', 'deployment.environment': 'staging' },
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
    })
    t.equal(loadConfig({ OTEL_SERVICE_NAME: 'gw-eu' }).tracing, undefined, 'no endpoint: no export')
    const off = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }
    t.equal(loadConfig({ ...off, OTEL_SDK_DISABLED: 'true' }).tracing, undefined)
    t.equal(loadConfig({ ...off, OTEL_TRACES_EXPORTER: 'none' }).tracing, undefined)
  },
)
