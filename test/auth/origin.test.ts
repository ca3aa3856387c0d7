// The origin policy (docs/api.md, "Origins and CORS"): a foreign Origin is refused on every route before anything else;
// allowed origins get CORS with credentials and working preflights; requests without Origin pass,
// except state changes that carry the session cookie. The client's Origin, Referer, Cookie and
// Authorization never reach the upstream.
import t from 'tap'
import { orderBody, picks } from '../helpers/picks.js'
import { PUBLIC_ORIGIN, startAuthGateway } from './client.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const PARTNER = 'https://partner.example'
const UUID = '6f1c1a3e-1d7b-4a7e-9a57-3f0e8b5c2d11'

const ROUTES: Array<[string, string]> = [
  ['GET', '/api/v1/tokens'],
  ['GET', '/api/v1/tokens/1'],
  ['GET', '/api/v1/chains'],
  ['GET', '/api/v1/tokens/swap-limits?depositTokenId=1&settleTokenId=2'],
  ['GET', '/api/v1/tokens/quote?depositTokenId=1&settleTokenId=2&amount=1&amountIsDeposit=true'],
  ['POST', '/api/v1/orders/create'],
  ['GET', `/api/v1/orders/${UUID}`],
  ['GET', '/api/v1/orders'],
  ['GET', `/api/orders/${UUID}/status-stream`],
  ['GET', '/api/auth/siwx/challenge'],
  ['POST', '/api/auth/siwx/verify'],
  ['POST', '/api/auth/refresh'],
  ['GET', '/api/auth/me'],
  ['GET', '/api/auth/session'],
  ['POST', '/api/auth/logout'],
  ['GET', '/healthz'],
  ['GET', '/readyz'],
  ['GET', '/api/openapi.json'],
  ['GET', '/api/docs'],
  ['GET', '/no/such/route'],
  ['OPTIONS', '/api/v1/orders/create'],
]

t.test('a foreign Origin is 403 ORIGIN_NOT_ALLOWED on every route, before any work', async (t) => {
  const gw = await startAuthGateway(t, { env: { ALLOWED_ORIGINS: PARTNER } })
  const foreign = [
    'https://evil.example',
    'null',
    'https://localhost:5173',
    'http://sub.localhost:3000',
    'http://localhost.evil.example:3000',
    'http://127.0.0.2:5173',
  ]
  const upstreamCalls = gw.sandbox.control.requests.length
  for (const origin of foreign) {
    const client = gw.client(origin)
    for (const [method, path] of ROUTES) {
      const res = await client.request(method, path, {
        body: method === 'POST' ? {} : undefined,
        headers: method === 'OPTIONS' ? { 'access-control-request-method': 'POST' } : {},
      })
      const name = `${origin} ${method} ${path}`
      t.equal(res.status, 403, name)
      t.equal(res.json?.code, 'ORIGIN_NOT_ALLOWED', name)
      t.match(res.headers.get('content-type'), /^application\/problem\+json/, name)
      t.notOk(res.headers.get('access-control-allow-origin'), `${name}: no CORS grant`)
      t.equal(res.headers.get('referrer-policy'), 'no-referrer', `${name}: security headers still set`)
    }
  }
  t.equal(gw.sandbox.control.requests.length, upstreamCalls, 'not one upstream call was made')
  t.ok(
    gw.logs.lines().some((l) => l.code === 'ORIGIN_NOT_ALLOWED' && l.status === 403),
    'refusals are logged by code',
  )
})

t.test('requests without Origin pass, and the public origin itself is allowed', async (t) => {
  const gw = await startAuthGateway(t)
  for (const client of [gw.client(null), gw.client(PUBLIC_ORIGIN)]) {
    const res = await client.get('/api/auth/siwx/challenge')
    t.equal(res.status, 200)
    t.match(res.headers.get('vary'), /Origin/, 'caches key on Origin either way')
    t.equal((await client.get('/healthz')).status, 200)
  }
  const plain = await gw.client(null).get('/api/auth/siwx/challenge')
  for (const header of [
    'access-control-allow-origin',
    'access-control-allow-credentials',
    'access-control-expose-headers',
  ])
    t.equal(plain.headers.get(header), null, `no ${header} without Origin`)
})

t.test('an allowed cross origin gets CORS with credentials, and its preflights succeed', async (t) => {
  const gw = await startAuthGateway(t, { env: { ALLOWED_ORIGINS: `${PARTNER},http://127.0.0.1:5173` } })
  const partner = gw.client(PARTNER)
  const res = await partner.get('/api/auth/session')
  t.equal(res.status, 200)
  t.equal(res.headers.get('access-control-allow-origin'), PARTNER, 'the origin is echoed, never *')
  t.equal(res.headers.get('access-control-allow-credentials'), 'true')
  t.match(res.headers.get('vary'), /Origin/i, 'caches keep origins apart')
  t.match(res.headers.get('access-control-expose-headers'), /x-request-id/)

  const preflight = await partner.request('OPTIONS', '/api/v1/orders/create', {
    headers: {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,idempotency-key,x-session-mode',
    },
  })
  t.equal(preflight.status, 204)
  t.equal(preflight.headers.get('access-control-allow-origin'), PARTNER)
  t.equal(preflight.headers.get('access-control-allow-credentials'), 'true')
  t.match(preflight.headers.get('access-control-allow-methods'), /POST/)
  for (const header of ['content-type', 'idempotency-key', 'x-session-mode', 'authorization']) {
    t.match(preflight.headers.get('access-control-allow-headers'), new RegExp(header), header)
  }
  t.ok(Number(preflight.headers.get('access-control-max-age')) > 0, 'browsers may cache the preflight')

  const local = await gw.client('http://127.0.0.1:5173').request('OPTIONS', '/api/auth/siwx/verify', {
    headers: { 'access-control-request-method': 'POST' },
  })
  t.equal(local.status, 204, 'each listed origin is allowed')

  // The whole sign-in works cross-origin, with credentials.
  const wallet = newWallet()
  const { verify } = await signInThroughGateway(partner, wallet)
  t.equal(verify.status, 201)
  t.equal(verify.headers.get('access-control-allow-origin'), PARTNER)
  t.equal((await partner.get('/api/auth/session')).json.signedIn, true)

  const plain = await gw.client(null).request('OPTIONS', '/api/auth/session')
  t.equal(plain.status, 204, 'an OPTIONS request without Origin is not an error')
})

t.test(
  'a state change carrying the session cookie needs an allowed Origin; Bearer clients do not',
  async (t) => {
    const gw = await startAuthGateway(t)
    const browser = gw.client()
    const { verify } = await signInThroughGateway(browser, newWallet(), '1', { 'x-session-mode': 'token' })
    const p = picks(gw.sandbox.control.tokens())
    const creates = gw.sandbox.control.requestsTo('POST /v1/orders/create').length
    for (const [path, body] of [
      ['/api/v1/orders/create', orderBody(p)],
      ['/api/auth/refresh', undefined],
      ['/api/auth/logout', undefined],
    ] as const) {
      const res = await browser.post(path, { body, origin: null })
      t.equal(res.status, 403, `${path} with the cookie and no Origin`)
      t.equal(res.json.code, 'ORIGIN_NOT_ALLOWED', path)
    }
    t.equal(gw.sandbox.control.requestsTo('POST /v1/orders/create').length, creates, 'no order was created')
    t.equal(
      (await browser.get('/api/auth/session', { origin: null })).json.signedIn,
      true,
      'reads need no Origin',
    )

    const app = gw.client(null)
    const bearer = { authorization: `Bearer ${verify.json.sessionToken}` }
    const created = await app.post('/api/v1/orders/create', { body: orderBody(p), headers: bearer })
    t.equal(created.status, 201, 'the Bearer session token needs no Origin')
    t.equal(created.json.userId, verify.json.userId)
    t.equal((await app.post('/api/auth/logout', { headers: bearer })).status, 204)
    t.equal((await browser.post('/api/auth/logout')).status, 204, 'with its Origin the browser signs out')
  },
)

t.test("the client's Origin, Referer, Cookie and Authorization never reach the upstream", async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const referer = { referer: 'http://localhost:3000/orders/secret-page' }
  const { verify } = await signInThroughGateway(browser, newWallet(), '1', {
    'x-session-mode': 'token',
    ...referer,
  })
  const p = picks(gw.sandbox.control.tokens())
  const created = await browser.post('/api/v1/orders/create', { body: orderBody(p), headers: referer })
  await browser.get(`/api/v1/orders/${created.json.uuid}`, { headers: referer })
  await browser.get('/api/v1/orders', { headers: referer })
  await browser.get('/api/auth/me', {
    headers: { ...referer, authorization: `Bearer ${verify.json.sessionToken}` },
  })
  await browser.get(
    `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=100&amountIsDeposit=true`,
    { headers: referer },
  )
  await browser.post('/api/auth/refresh', { headers: referer })

  const calls = gw.sandbox.control.requests
  t.ok(calls.length >= 8, `${calls.length} upstream calls inspected`)
  for (const call of calls) {
    const name = `${call.method} ${call.path}`
    t.notOk(call.headers.origin, `${name}: no Origin`)
    t.notOk(call.headers.referer, `${name}: no Referer`)
    t.notOk(String(call.headers.cookie ?? '').includes('session='), `${name}: not our session cookie`)
    if (call.headers.cookie !== undefined)
      t.equal(call.route, 'POST /auth/refresh', `${name}: only refresh gets a cookie`)
    const authorization = String(call.headers.authorization ?? '')
    t.notOk(authorization.includes(verify.json.sessionToken), `${name}: not the client's Authorization`)
    if (authorization) t.match(authorization, /^Bearer eyJ/, `${name}: only the upstream access token`)
  }
})

const EXPOSED = [
  'etag',
  'x-request-id',
  'idempotent-replayed',
  'retry-after',
  'x-cache-status',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]
const REQUEST_HEADERS = [
  'content-type',
  'authorization',
  'idempotency-key',
  'if-none-match',
  'last-event-id',
  'x-request-id',
  'x-session-mode',
]

t.test(
  'outside production a dev server on localhost, 127.0.0.1 or [::1] works with no configuration',
  async (t) => {
    const gw = await startAuthGateway(t)
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:5173',
      'http://[::1]:5173',
      'http://localhost:8080',
    ]) {
      const page = gw.client(origin)
      const res = await page.get('/api/auth/session')
      t.equal(res.status, 200, origin)
      t.equal(res.headers.get('access-control-allow-origin'), origin, `${origin}: echoed`)
      t.equal(res.headers.get('access-control-allow-credentials'), 'true', `${origin}: with credentials`)
      const preflight = await page.request('OPTIONS', '/api/v1/orders/create', {
        headers: {
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
      t.equal(preflight.status, 204, `${origin}: preflight`)
      t.equal(preflight.headers.get('access-control-allow-origin'), origin)
    }
    t.notOk(
      gw.logs.lines().some((l) => l.level === 40 && String(l.msg).includes('ALLOWED_ORIGINS')),
      'nothing refused, nothing logged',
    )
  },
)

t.test('in production localhost is an origin like any other: refused unless listed', async (t) => {
  const gw = await startAuthGateway(t, { env: { NODE_ENV: 'production' } })
  for (const origin of ['http://localhost:5173', 'http://[::1]:5173']) {
    const res = await gw.client(origin).get('/api/auth/session')
    t.equal(res.status, 403, origin)
    t.equal(res.json.code, 'ORIGIN_NOT_ALLOWED')
  }
  const listed = await startAuthGateway(t, {
    env: { NODE_ENV: 'production', ALLOWED_ORIGINS: 'http://localhost:5173' },
  })
  t.equal((await listed.client('http://localhost:5173').get('/api/auth/session')).status, 200)
})

t.test('a refused origin is logged with the origin and the variable that would allow it', async (t) => {
  const gw = await startAuthGateway(t)
  await gw.client('https://staging.partner.example').get('/api/v1/tokens')
  const line = gw.logs.lines().find((l) => l.level === 40 && l.origin === 'https://staging.partner.example')
  t.ok(line, 'a warning names the origin')
  t.match(line?.msg, /https:\/\/staging\.partner\.example/)
  t.match(line?.msg, /ALLOWED_ORIGINS/, 'and says which variable allows it')
})

t.test(
  'CORS: preflights allow every request header a client sends, answers expose what it reads',
  async (t) => {
    const gw = await startAuthGateway(t, { env: { ALLOWED_ORIGINS: PARTNER } })
    const partner = gw.client(PARTNER)
    const preflight = await partner.request('OPTIONS', '/api/v1/tokens', {
      headers: {
        'access-control-request-method': 'GET',
        'access-control-request-headers': REQUEST_HEADERS.join(','),
      },
    })
    t.equal(preflight.status, 204)
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(/,\s*/)
    for (const header of REQUEST_HEADERS) t.ok(allowed.includes(header), `allows ${header}`)

    const first = await partner.get('/api/v1/tokens?symbol=USDT')
    t.equal(first.status, 200)
    const exposed = (first.headers.get('access-control-expose-headers') ?? '').split(/,\s*/)
    for (const header of EXPOSED) t.ok(exposed.includes(header), `exposes ${header}`)
    for (const header of ['etag', 'x-request-id', 'x-cache-status', 'x-ratelimit-limit']) {
      t.ok(first.headers.get(header), `${header} is sent, so the page can read it`)
    }

    // The conditional GET that failed its preflight before If-None-Match was allowed.
    const etag = first.headers.get('etag') ?? ''
    const again = await partner.get('/api/v1/tokens?symbol=USDT', { headers: { 'if-none-match': etag } })
    t.equal(again.status, 304)
    t.equal(again.headers.get('access-control-allow-origin'), PARTNER)
    t.equal(again.headers.get('etag'), etag)
  },
)
