// The cross-site Origin rule: checked on every spec route before authentication; stricter on the
// status stream; control routes exempt.
import t from 'tap'
import { startSandbox } from '../helpers/sandbox.js'
import { readRaw } from '../helpers/sse.js'
import { call, TENANT } from './http.js'

const refused = { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' }

t.test('the service domain, its subdomains and localhost with a port are allowed', async (t) => {
  const { url } = await startSandbox(t)
  for (const origin of [
    'https://swap.example',
    'https://app.swap.example',
    'http://localhost:3000',
    'https://localhost:8443',
  ]) {
    const res = await call(url, '/auth/siwx/challenge', { headers: { origin } })
    t.equal(res.status, 200, origin)
  }
  t.equal((await call(url, '/auth/siwx/challenge')).status, 200, 'no Origin: unaffected')
})

t.test('any other Origin is a 500 "Internal server error"', async (t) => {
  const { url } = await startSandbox(t)
  const origins = [
    'https://evil.example',
    'https://swap.example.evil.com',
    'https://notswap.example',
    'http://swap.example',
    'https://swap.example:8443',
    'http://localhost',
    'http://127.0.0.1:3000',
    'null',
  ]
  for (const origin of origins) {
    const res = await call(url, '/v1/tokens', { headers: { origin } })
    t.equal(res.status, 500, origin)
    t.strictSame(res.body, refused, origin)
  }
})

t.test('the rule runs before authentication', async (t) => {
  const { url } = await startSandbox(t)
  const origin = 'https://evil.example'
  const routes = [
    ['/v1/tokens/quote?depositTokenId=2&settleTokenId=3&amount=1&amountIsDeposit=true', 'GET'],
    ['/v1/orders', 'GET'],
    ['/auth/me', 'GET'],
    ['/auth/siwx/verify', 'POST'],
    ['/auth/refresh', 'POST'],
  ] as const
  for (const [path, method] of routes) {
    const res = await call(url, path, { method, headers: { origin } })
    t.strictSame(res.body, refused, `${method} ${path} without credentials`)
  }
  const withKey = await call(url, '/v1/tokens/swap-limits?depositTokenId=2&settleTokenId=3', {
    headers: { ...TENANT, origin },
  })
  t.strictSame(withKey.body, refused, 'a valid tenant key does not help')
})

t.test('on the status stream only the service domain itself and localhost are allowed', async (t) => {
  const { url } = await startSandbox(t)
  const path = '/orders/00000000-0000-4000-8000-000000000000/status-stream'
  for (const origin of ['https://swap.example', 'http://localhost:5173']) {
    const stream = await readRaw(`${url}${path}`, { origin })
    t.equal(stream.status, 200, origin)
    stream.close()
  }
  const sub = await call(url, path, { headers: { origin: 'https://app.swap.example' } })
  t.equal(sub.status, 500, 'a subdomain is refused on the stream')
  t.strictSame(sub.body, refused)
  t.equal((await call(url, '/v1/tokens', { headers: { origin: 'https://app.swap.example' } })).status, 200)
})

t.test('serviceDomain sets the own domain; control routes are exempt and unrecorded', async (t) => {
  const { url, control } = await startSandbox(t, { serviceDomain: 'api.partner.test' })
  t.equal(
    (await call(url, '/auth/siwx/challenge', { headers: { origin: 'https://api.partner.test' } })).status,
    200,
  )
  t.equal(
    (await call(url, '/auth/siwx/challenge', { headers: { origin: 'https://swap.example' } })).status,
    500,
  )
  const res = await call(url, '/__sandbox/time/advance', {
    headers: { origin: 'https://evil.example' },
    json: { ms: 1 },
  })
  t.equal(res.status, 200)
  t.same(
    control.requests.map((entry) => entry.route),
    ['GET /auth/siwx/challenge', 'GET /auth/siwx/challenge'],
    'refused requests are recorded, control calls are not',
  )
})
