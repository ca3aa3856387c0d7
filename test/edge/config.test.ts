import t from 'tap'
import { ConfigError, loadConfig } from '../../src/config.js'

const secret = 's'.repeat(32)

t.test('defaults follow CONTRACT §10', async (t) => {
  const c = loadConfig({})
  t.match(c, {
    port: 3000,
    host: '0.0.0.0',
    apiPrefix: '/api',
    upstreamUrl: undefined,
    publicOrigin: 'http://localhost:3000',
    metricsPort: 9091,
    upstreamTimeoutMs: 10_000,
    catalogTtlMs: 300_000,
    catalogMaxStaleMs: 86_400_000,
    sseHeartbeatMs: 15_000,
    sseMaxPerIp: 20,
    sseMaxTotal: 10_000,
    sessionSecretGenerated: true,
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
  ]
  for (const [env, re] of cases)
    t.throws(() => loadConfig(env), { name: 'ConfigError', message: re }, JSON.stringify(env))
})

t.test('production refuses the sandbox and a generated secret', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), { message: /UPSTREAM_URL[\s\S]*SESSION_SECRET/ })
  const ok = loadConfig({
    NODE_ENV: 'production',
    UPSTREAM_URL: 'https://up.example/api/',
    TENANT_API_KEY: 'k',
    SESSION_SECRET: `${secret},${'t'.repeat(40)}`,
  })
  t.equal(ok.upstreamUrl, 'https://up.example/api')
  t.equal(ok.sessionSecrets.length, 2)
  t.type(new ConfigError('x'), Error)
})

t.test(
  'with the built-in sandbox the create limit is relaxed, unless RATE_LIMITS says otherwise',
  async (t) => {
    t.same(loadConfig({}).rateLimits.create, { max: 120, timeWindow: '1 minute' })
    const upstream = { UPSTREAM_URL: 'https://swap.example', TENANT_API_KEY: 'k' }
    t.same(loadConfig(upstream).rateLimits.create, { max: 10, timeWindow: '1 minute' })
    const overridden = loadConfig({ RATE_LIMITS: '{"create":{"max":3,"timeWindow":"1 minute"}}' })
    t.same(overridden.rateLimits.create, { max: 3, timeWindow: '1 minute' })
  },
)

t.test('RATE_LIMITS overrides one group and keeps the others', async (t) => {
  const c = loadConfig({ RATE_LIMITS: '{"create":{"max":20,"timeWindow":"1 minute"}}' })
  t.same(c.rateLimits.create, { max: 20, timeWindow: '1 minute' })
  t.ok(c.rateLimits.catalog.max > 20)
})
