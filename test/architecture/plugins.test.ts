// Each capability declares the plugins and decorators it needs: registered without them, the app
// refuses to start with a message naming the missing one, instead of failing on the first request.
import Fastify from 'fastify'
import t from 'tap'
import { authPlugin } from '../../src/auth/plugin.js'
import { catalogPlugin } from '../../src/catalog/plugin.js'
import { systemClock } from '../../src/clock.js'
import { liveQuotePlugin } from '../../src/live-quote/plugin.js'
import { health } from '../../src/ops/health.js'
import { ordersPlugin } from '../../src/orders/plugin.js'
import { redisPlugin } from '../../src/redis/plugin.js'
import { statusStreamPlugin } from '../../src/status-stream/plugin.js'
import { upstreamPlugin } from '../../src/upstream/plugin.js'

const site = { apiPrefix: '/api', publicOrigin: 'http://localhost:3000' }
const cases = [
  ['redis', () => redisPlugin, { url: undefined, commandTimeoutMs: 250 }],
  [
    'upstream',
    () => upstreamPlugin,
    {
      url: 'http://127.0.0.1:9',
      tenantKey: 'k',
      timeoutMs: 1,
      maxRps: undefined,
      readinessWindowMs: 1,
      userAgent: 'x',
    },
  ],
  ['catalog', () => catalogPlugin, { apiPrefix: '/api', ttlMs: 1, maxStaleMs: 0 }],
  ['auth', () => authPlugin, { ...site, sessionSecrets: ['s'.repeat(32)], expiryMarginMs: 0 }],
  ['orders', () => ordersPlugin, { ...site, claimTtlMs: 1 }],
  ['status-stream', () => statusStreamPlugin, { apiPrefix: '/api' }],
  ['live-quote', () => liveQuotePlugin, { ...site, refreshMs: 1, maxSilenceMs: 1, maxMs: 1 }],
  ['health', () => health, {}],
] as const

for (const [name, plugin, options] of cases) {
  t.test(`${name}, registered alone, does not start and names what it needs`, async (t) => {
    const app = Fastify({ logger: false })
    app.decorate('clock', systemClock)
    app.decorate('random', Math.random)
    // The options are the plugin's own slice; what it lacks is around it.
    await t.rejects(async () => app.register(plugin() as never, options as never), {
      message: new RegExp(`^The (decorator '\\w+' required by|dependency '[\\w-]+' of plugin) '${name}'`),
    })
    await app.close()
  })
}

t.test('the app-wide clock is a declared decorator too', async (t) => {
  const app = Fastify({ logger: false })
  await t.rejects(async () => app.register(catalogPlugin, { apiPrefix: '/api', ttlMs: 1, maxStaleMs: 0 }), {
    message: "The decorator 'clock' required by 'catalog' is not present in Fastify",
  })
  await app.close()
})
