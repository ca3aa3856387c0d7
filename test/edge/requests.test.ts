import t from 'tap'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'

t.test('unknown routes are NOT_FOUND problem documents; nothing else is proxied', async (t) => {
  const { app, sandbox } = await startGateway(t)
  for (const url of [
    '/api/nope',
    '/api/v1/tokens/quote/extra',
    '/v1/tokens',
    '/api/v1/tokens/quote/../../../../v1/tokens',
    '/api/orders/x/y',
  ]) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 404, url)
    assertProblem(t, res, 'NOT_FOUND')
  }
  t.equal(sandbox.control.requests.filter((r) => r.route !== 'GET /v1/tokens').length, 0)
})

t.test('request ids: a sane client id is kept and forwarded, anything else is replaced', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const uuid = crypto.randomUUID()
  const kept = await app.inject({
    url: `/api/v1/orders/${uuid}`,
    headers: { 'x-request-id': 'trace-abc_1.2' },
  })
  t.equal(kept.headers['x-request-id'], 'trace-abc_1.2')
  t.equal(kept.json().requestId, 'trace-abc_1.2')
  t.equal(sandbox.control.requestsTo('GET /v1/orders/:uuid')[0]?.headers['x-request-id'], 'trace-abc_1.2')
  for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
    const res = await app.inject({ url: '/api/nope', headers: { 'x-request-id': bad } })
    t.not(res.headers['x-request-id'], bad)
    t.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  }
})

t.test(
  'client Origin, Referer, Cookie and Authorization never go upstream; our own user agent does',
  async (t) => {
    const { app, sandbox, config } = await startGateway(t)
    const p = picks(sandbox.control.tokens())
    const headers = {
      origin: config.publicOrigin,
      referer: `${config.publicOrigin}/swap`,
      cookie: 'tracking=1',
      authorization: 'Basic dXNlcjpwYXNz',
      'user-agent': 'client-browser/1.0',
      connection: 'keep-alive, x-hop',
      'x-hop': 'must-not-pass',
    }
    await app.inject({
      url: `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=1&amountIsDeposit=true`,
      headers,
    })
    await app.inject({
      method: 'POST',
      url: '/api/v1/orders/create',
      payload: orderBody(p),
      headers: { ...headers, 'x-session-mode': 'x' },
    })
    await app.inject({ url: `/api/v1/orders/${crypto.randomUUID()}`, headers })
    const sent = sandbox.control.requests.filter((r) => r.route !== null)
    t.ok(sent.length >= 3)
    for (const r of sent) {
      for (const h of ['origin', 'referer', 'cookie', 'authorization', 'x-hop'])
        t.notOk(r.headers[h], `${r.route}: no ${h}`)
      t.match(r.headers['user-agent'], /^swap-gateway\//)
    }
  },
)

t.test('one log line per request with route, status and upstream time; no secrets in logs', async (t) => {
  const { app, sandbox, logs } = await startGateway(t)
  const p = picks(sandbox.control.tokens())
  const uuid = crypto.randomUUID()
  await app.inject({
    url: `/api/v1/orders/${uuid}`,
    headers: { authorization: 'Bearer secret-bearer-token', cookie: 'session=secret-cookie-value' },
  })
  await app.inject({ method: 'POST', url: '/api/v1/orders/create', payload: orderBody(p) })
  const lines = logs.lines().filter((l) => l.msg === 'request completed')
  t.equal(lines.length, 2)
  t.match(lines[0], {
    route: '/api/v1/orders/:uuid',
    status: 404,
    code: 'ORDER_NOT_FOUND',
    upstreamMs: Number,
    requestId: String,
  })
  t.notMatch(String(lines[0]?.url), uuid, 'order uuids are shortened')
  t.match(lines[1], { route: '/api/v1/orders/create', status: 201 })
  const text = logs.text()
  for (const secret of [TEST_TENANT_KEY, 'secret-bearer-token', 'secret-cookie-value'])
    t.notMatch(text, secret)
})

t.test('security headers on every response', async (t) => {
  const { app } = await startGateway(t)
  for (const url of ['/healthz', '/api/nope']) {
    const res = await app.inject(url)
    t.equal(res.headers['referrer-policy'], 'no-referrer', url)
    t.equal(res.headers['x-content-type-options'], 'nosniff')
    t.match(res.headers['content-security-policy'], /default-src 'none'/)
  }
})

t.test('health and readiness', async (t) => {
  const { app } = await startGateway(t)
  t.same((await app.inject('/healthz')).json(), { status: 'ok' })
  await app.inject(`/api/v1/orders/${crypto.randomUUID()}`)
  const ready = await app.inject('/readyz')
  t.equal(ready.statusCode, 200, ready.body)
})
