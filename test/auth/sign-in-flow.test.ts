// The whole sign-in flow a frontend goes through, over real sockets against the sandbox: challenge,
// one wallet signature, verify, session, me, an order attributed and listed in history, logout. And
// the same for a client without cookies, using the Bearer session token.
import t from 'tap'
import { parseSiweMessage } from 'viem/siwe'
import { TEST_TENANT_KEY } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { SITE, startAuthGateway } from './client.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

t.test('a wallet signs in once, sees its session and user, and its new order in its history', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const wallet = newWallet()

  t.same((await browser.get('/api/auth/session')).json, { signedIn: false }, 'no session before sign-in')

  const { challenge, message, signature, verify } = await signInThroughGateway(browser, wallet)
  t.equal(challenge.status, 200)
  t.type(challenge.json.nonce, 'string')
  const fields = parseSiweMessage(message)
  t.equal(fields.domain, SITE, 'the message names the public host')
  t.equal(fields.address, wallet.address)
  t.equal(fields.chainId, 1)
  t.equal(fields.nonce, challenge.json.nonce, 'the message carries the upstream nonce')
  t.match(
    message,
    new RegExp(`\\nNonce: ${challenge.json.nonce}\\n`),
    'the Nonce line the upstream looks for',
  )

  t.equal(verify.status, 201, verify.text)
  t.equal(verify.json.signedIn, true)
  t.equal(verify.json.address, wallet.address)
  t.equal(verify.json.chainId, '1')
  t.match(verify.json.userId, /^[0-9a-f-]{36}$/)
  t.notOk('sessionToken' in verify.json, 'no session token in the body without X-Session-Mode: token')
  t.notOk('accessToken' in verify.json || 'refreshToken' in verify.json, 'no upstream token in the body')
  const expiresAt = Date.parse(verify.json.expiresAt)
  t.ok(
    Math.abs(expiresAt - (gw.clock.now() + 14 * 60_000)) < 5_000,
    'expiresAt is the access token exp (15 minutes) less SESSION_EXPIRY_MARGIN_MS (60 s)',
  )
  t.equal(verify.setCookies.length, 1, 'one cookie: ours, not the upstream ones')
  t.match(verify.setCookies[0], /^session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/)
  t.ok(browser.cookies.has('session'))

  const session = await browser.get('/api/auth/session')
  t.equal(session.status, 200)
  t.equal(session.json.signedIn, true)
  t.equal(session.json.userId, verify.json.userId)
  t.equal(session.json.expiresAt, verify.json.expiresAt)
  t.ok(session.json.expiresIn > 830 && session.json.expiresIn <= 840, 'expiresIn in whole seconds')

  const me = await browser.get('/api/auth/me')
  t.equal(me.status, 200)
  t.equal(me.json.id, verify.json.userId, '/auth/me is the upstream user')

  const p = picks(gw.sandbox.control.tokens())
  const created = await browser.post('/api/v1/orders/create', { body: orderBody(p) })
  t.equal(created.status, 201, created.text)
  t.equal(created.json.userId, verify.json.userId, 'the order is attributed to the user')

  const anonymous = await gw.client().post('/api/v1/orders/create', { body: orderBody(p) })
  t.equal(anonymous.json.userId, null, 'without a session the order is not attributed')

  const history = await browser.get('/api/v1/orders?current=1&limit=10')
  t.equal(history.status, 200, history.text)
  t.equal(history.headers.get('cache-control'), 'no-store')
  t.same(
    history.json.items.map((o: { uuid: string }) => o.uuid),
    [created.json.uuid],
    'the history lists the attributed order only',
  )
  t.equal(history.json.meta.totalItems, 1)

  // The upstream's refresh fails today: the answer is a challenge, and the session is left as it was.
  const refresh = await browser.post('/api/auth/refresh')
  t.equal(refresh.status, 401)
  t.equal(refresh.json.code, 'SESSION_EXPIRED')
  t.equal(parseSiweMessage(refresh.json.challenge.message).address, wallet.address)
  t.equal(
    (await browser.get('/api/auth/session')).json.signedIn,
    true,
    'still signed in until the token lapses',
  )
  const sessionCookie = browser.cookies.get('session') ?? ''

  const logout = await browser.post('/api/auth/logout')
  t.equal(logout.status, 204)
  t.match(
    logout.setCookies[0],
    /^session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
  )
  t.notOk(browser.cookies.has('session'), 'the cookie is cleared')
  t.same((await browser.get('/api/auth/session')).json, { signedIn: false })
  const after = await browser.get('/api/v1/orders')
  t.equal(after.status, 401)
  t.equal(after.json.code, 'AUTH_REQUIRED')

  // What the upstream got: the tenant key on verify, the user's token on create, never our cookie.
  const [verifyCall] = gw.sandbox.control.requestsTo('POST /auth/siwx/verify')
  t.equal(verifyCall?.headers['x-tenant-api-key'], TEST_TENANT_KEY, 'tenant key injected on verify')
  const attributed = gw.sandbox.control.requestsTo('POST /v1/orders/create')[0]
  t.match(attributed?.headers.authorization, /^Bearer eyJ/, 'create carried the access token')
  t.equal(attributed?.headers['x-tenant-api-key'], TEST_TENANT_KEY, 'and the tenant key beside it')
  t.equal(
    gw.sandbox.control.requestsTo('GET /auth/me').length,
    2,
    'me read once at verify, once for /auth/me',
  )

  // No upstream token, refresh cookie, tenant key or signature ever reached the browser or a log line.
  const accessTokens = new Set<string>()
  const refreshCookies = new Set<string>()
  for (const call of gw.sandbox.control.requests) {
    const bearer = /^Bearer (.+)$/.exec(String(call.headers.authorization ?? ''))?.[1]
    if (bearer) accessTokens.add(bearer)
    const refreshCookie = /refresh_token=([^;]+)/.exec(String(call.headers.cookie ?? ''))?.[1]
    if (refreshCookie) refreshCookies.add(refreshCookie).add(decodeURIComponent(refreshCookie))
    // The sandbox's cookie is `s:<refreshToken>.<hmac>`: the bare refresh token must not leak either.
    const bare = /^s:(.+)\.[^.]+$/.exec(decodeURIComponent(refreshCookie ?? ''))?.[1]
    if (bare) refreshCookies.add(bare)
  }
  t.ok(
    accessTokens.size > 0 && refreshCookies.size > 0,
    'the upstream tokens the gateway held were collected',
  )
  const secrets = [TEST_TENANT_KEY, signature, ...accessTokens, ...refreshCookies]
  const seen = browser.received.join('\n')
  const logs = gw.logs.text()
  for (const secret of secrets) {
    t.notOk(seen.includes(secret), `never in a response: ${secret.slice(0, 6)}…`)
    t.notOk(logs.includes(secret), `never in a log line: ${secret.slice(0, 6)}…`)
  }
  t.notOk(logs.includes(sessionCookie), 'the sealed session is not logged either')
  t.ok(
    gw.logs.lines().some((l) => l.msg === 'signed in'),
    'the sign-in itself is logged',
  )
})

t.test(
  'a client without cookies signs in with X-Session-Mode: token and uses the Bearer token',
  async (t) => {
    const gw = await startAuthGateway(t)
    const app = gw.client(null)
    const wallet = newWallet()
    const { verify } = await signInThroughGateway(app, wallet, 'eip155:1', { 'x-session-mode': 'token' })
    t.equal(verify.status, 201, verify.text)
    t.equal(verify.json.chainId, 'eip155:1', 'the chain id as the client sent it')
    t.type(verify.json.sessionToken, 'string')
    t.ok(
      verify.json.sessionToken.length < 2048,
      `the token is small (${verify.json.sessionToken.length} chars)`,
    )
    const [verifyCall] = gw.sandbox.control.requestsTo('POST /auth/siwx/verify')
    t.same((verifyCall?.body as { data?: unknown } | undefined)?.data, {
      chainId: 'eip155:1',
      accountAddress: wallet.address,
    })

    app.cookies.clear()
    const bearer = { authorization: `Bearer ${verify.json.sessionToken}` }
    const session = await app.get('/api/auth/session', { headers: bearer })
    t.equal(session.json.signedIn, true)
    t.equal(session.json.address, wallet.address)

    const p = picks(gw.sandbox.control.tokens())
    const created = await app.post('/api/v1/orders/create', { body: orderBody(p), headers: bearer })
    t.equal(created.status, 201, 'a Bearer state change needs no Origin')
    t.equal(created.json.userId, verify.json.userId)
    const history = await app.get('/api/v1/orders', { headers: bearer })
    t.equal(history.json.items.length, 1)
    const quote = await app.get(
      `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=100&amountIsDeposit=true`,
      { headers: bearer },
    )
    t.equal(quote.status, 200)
    const [quoteCall] = gw.sandbox.control.requestsTo('GET /v1/tokens/quote')
    t.match(quoteCall?.headers.authorization, /^Bearer eyJ/, 'quote carries the access token upstream')
    t.equal(quoteCall?.headers['x-tenant-api-key'], TEST_TENANT_KEY, 'and still the tenant key')
  },
)

t.test('when /auth/me cannot be read at sign-in, the wallet is signed in with userId null', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  gw.sandbox.control.fault('GET /auth/me', { kind: 'error500', count: 3 })
  const { verify } = await signInThroughGateway(browser, newWallet())
  t.equal(verify.status, 201)
  t.equal(verify.json.userId, null)
  t.ok(gw.logs.lines().some((l) => l.msg === 'signed in, but /auth/me could not be read'))

  const p = picks(gw.sandbox.control.tokens())
  const created = await browser.post('/api/v1/orders/create', { body: orderBody(p) })
  t.match(created.json.userId, /^[0-9a-f-]{36}$/, 'the upstream still attributes the order by the token')

  gw.sandbox.control.fault('GET /auth/me', { kind: 'error500', count: 3 })
  const me = await browser.get('/api/auth/me')
  t.equal(me.status, 502, 'an upstream failure on /auth/me is reported as such')
  t.equal(me.json.code, 'UPSTREAM_ERROR')
  t.equal((await browser.get('/api/auth/me')).json.id, created.json.userId, 'and works again afterwards')
})
