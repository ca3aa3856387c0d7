// WEBHOOK_URLS and WEBHOOK_SECRET come together, each well formed, or the start-up stops naming the variable.
import t from 'tap'
import { loadConfig } from '../../src/config.js'
import { newSecret } from './support.js'

const base = { NODE_ENV: 'test', UPSTREAM_URL: 'http://127.0.0.1:9', TENANT_API_KEY: 'k' }
const refused = (env: Record<string, string>) => {
  try {
    loadConfig({ ...base, ...env })
  } catch (err) {
    return (err as Error).message
  }
  return 'accepted'
}

t.test('webhook settings are refused with the variable named', async (t) => {
  const secret = newSecret()
  t.match(refused({ WEBHOOK_URLS: 'https://a.example/h' }), /WEBHOOK_SECRET: is required with WEBHOOK_URLS/)
  t.match(refused({ WEBHOOK_SECRET: secret }), /WEBHOOK_URLS: is required with WEBHOOK_SECRET/)
  t.match(refused({ WEBHOOK_URLS: 'ftp://a.example/h', WEBHOOK_SECRET: secret }), /WEBHOOK_URLS/)
  t.match(refused({ WEBHOOK_URLS: '/relative', WEBHOOK_SECRET: secret }), /WEBHOOK_URLS/)
  const short = `whsec_${Buffer.alloc(16).toString('base64')}`
  for (const bad of ['not-a-secret', short, `whsec_${Buffer.alloc(65).toString('base64')}`, 'whsec_!!!'])
    t.match(
      refused({ WEBHOOK_URLS: 'https://a.example/h', WEBHOOK_SECRET: bad }),
      /WEBHOOK_SECRET/,
      bad.slice(0, 12),
    )
  t.match(refused({ WEBHOOK_RETRY_SCHEDULE_MS: '5000,soon' }), /WEBHOOK_RETRY_SCHEDULE_MS/)
  t.match(refused({ WEBHOOK_TIMEOUT_MS: '0' }), /WEBHOOK_TIMEOUT_MS/)
  t.notMatch(
    refused({ WEBHOOK_URLS: 'https://a.example/h', WEBHOOK_SECRET: short }),
    short.slice(6),
    'the secret is not echoed',
  )
})

t.test('the defaults, and lists in either form', async (t) => {
  t.equal(loadConfig(base).webhooks, undefined, 'no URLs: no webhooks')
  const secret = newSecret()
  const config = loadConfig({
    ...base,
    WEBHOOK_URLS: 'https://a.example/h, http://b.internal:8080/x',
    WEBHOOK_SECRET: `${secret},${newSecret()}`,
  })
  t.match(config.webhooks, {
    urls: ['https://a.example/h', 'http://b.internal:8080/x'],
    timeoutMs: 15_000,
    scheduleMs: [5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000],
  })
  t.equal(config.webhooks!.secrets.length, 2)
  const json = loadConfig({
    ...base,
    WEBHOOK_URLS: 'https://a.example/h',
    WEBHOOK_SECRET: secret,
    WEBHOOK_RETRY_SCHEDULE_MS: '[10, 20]',
  })
  t.same(json.webhooks!.scheduleMs, [10, 20])
})
