// Without REDIS_URL the watch and the pending deliveries live in the process: in production, with
// webhooks configured, start-up says so at warn level, so an operator learns it before losing any.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'

const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://app.example',
  DEMO: 'off',
}
const WEBHOOKS = {
  WEBHOOK_URLS: 'https://hooks.example/orders',
  WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
}
const warned = (lines: Array<Record<string, unknown>>) =>
  lines.some((l) => l.level === 40 && String(l.msg).startsWith('no REDIS_URL: watched orders'))

t.test('production with webhooks and no REDIS_URL warns at start-up', async (t) => {
  const { logs } = await startGateway(t, { env: { ...PRODUCTION, ...WEBHOOKS } })
  t.ok(warned(logs.lines()), 'the warn line')
  t.notMatch(JSON.stringify(logs.lines()), WEBHOOKS.WEBHOOK_SECRET.slice(6, 30), 'no secret logged')
})

t.test('production with neither webhooks nor Web Push: nothing to lose, no warning', async (t) => {
  const { logs } = await startGateway(t, { env: PRODUCTION })
  t.notOk(warned(logs.lines()))
})
