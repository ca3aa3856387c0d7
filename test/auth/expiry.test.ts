// When the 15-minute access token lapses: the gateway reads `exp` itself (clocks are moved, never
// slept), answers SESSION_EXPIRED with a challenge the wallet can sign at once, tries the upstream
// refresh with the cookie exactly as set, and falls back to the challenge when refresh fails.
import t from 'tap'
import { parseSiweMessage } from 'viem/siwe'
import { orderBody, picks } from '../helpers/picks.js'
import { startAuthGateway } from './client.js'
import { signInThroughGateway, verifyThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const MINUTE = 60_000

t.test(
  'a lapsed session gets SESSION_EXPIRED with a challenge that signs the wallet back in at once',
  async (t) => {
    const gw = await startAuthGateway(t)
    const browser = gw.client()
    const wallet = newWallet()
    const { verify } = await signInThroughGateway(browser, wallet, '10')
    const p = picks(gw.sandbox.control.tokens())

    gw.advance(13 * MINUTE + 20_000)
    const late = await browser.get('/api/auth/session')
    t.equal(late.json.signedIn, true, 'still signed in 100 s before exp')
    t.ok(late.json.expiresIn <= 40 && late.json.expiresIn > 30, 'expiresIn counts to exp less the margin')
    gw.advance(50_000)
    t.same(
      (await browser.get('/api/auth/session')).json,
      { signedIn: false, expired: true, address: wallet.address, chainId: '10' },
      'within SESSION_EXPIRY_MARGIN_MS (60 s) of exp the session counts as lapsed',
    )

    const create = await browser.post('/api/v1/orders/create', { body: orderBody(p) })
    t.equal(create.status, 401)
    t.equal(create.json.code, 'SESSION_EXPIRED')
    t.equal(
      gw.sandbox.control.requestsTo('POST /v1/orders/create').length,
      0,
      'no unattributed order was created',
    )
    const { nonce, message } = create.json.challenge
    const fields = parseSiweMessage(message)
    t.equal(fields.nonce, nonce)
    t.equal(fields.address, wallet.address, 'the message is for the session wallet')
    t.equal(fields.chainId, 10, 'and its chain')

    for (const path of ['/api/auth/me', '/api/v1/orders']) {
      const res = await browser.get(path)
      t.equal(res.json.code, 'SESSION_EXPIRED', path)
      t.type(res.json.challenge.nonce, 'string', `${path} carries a challenge`)
    }
    t.equal(gw.sandbox.control.requestsTo('GET /v1/orders').length, 0)

    const quote = await browser.get(
      `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=100&amountIsDeposit=true`,
    )
    t.equal(quote.status, 200, 'prices ignore a lapsed session')
    t.notOk(
      gw.sandbox.control.requestsTo('GET /v1/tokens/quote')[0]?.headers.authorization,
      'without the stale token',
    )

    const { verify: again } = await verifyThroughGateway(browser, wallet, message, '10')
    t.equal(again.status, 201, 'one signature and one verify call sign the wallet back in')
    t.equal(again.json.userId, verify.json.userId, 'as the same user')
    const created = await browser.post('/api/v1/orders/create', { body: orderBody(p) })
    t.equal(created.status, 201)
    t.equal(created.json.userId, verify.json.userId, 'orders are attributed again')
  },
)

t.test(
  'refresh sends the refresh cookie exactly as set, and falls back to a challenge when it fails',
  async (t) => {
    const gw = await startAuthGateway(t)
    const browser = gw.client()
    const wallet = newWallet()
    await signInThroughGateway(browser, wallet)
    gw.advance(16 * MINUTE)
    const refresh = await browser.post('/api/auth/refresh', {
      headers: { authorization: 'Basic Zm9vOmJhcg==' },
    })
    t.equal(refresh.status, 401)
    t.equal(refresh.json.code, 'SESSION_EXPIRED')
    t.equal(parseSiweMessage(refresh.json.challenge.message).address, wallet.address)

    const [sent] = gw.sandbox.control.requestsTo('POST /auth/refresh')
    t.match(
      sent?.headers.cookie,
      /^refresh_token=s[:%]/,
      'the gateway itself sent the upstream refresh cookie',
    )
    t.notMatch(String(sent?.headers.cookie), /session=/, "never the client's cookie")
    t.notOk(sent?.headers.origin, "never the client's Origin")
    t.notOk(sent?.headers.authorization, "never the client's Authorization")

    // The challenge is good at once.
    const { verify: again } = await verifyThroughGateway(browser, wallet, refresh.json.challenge.message)
    t.equal(again.status, 201)
    t.equal((await browser.get('/api/auth/session')).json.signedIn, true)
  },
)

t.test(
  'when the upstream refresh works, the lapsed session is renewed, the rotated cookie kept',
  async (t) => {
    const gw = await startAuthGateway(t)
    gw.sandbox.control.setRefreshWorks(true)
    const browser = gw.client()
    const wallet = newWallet()
    const { verify } = await signInThroughGateway(browser, wallet)
    for (const round of [1, 2]) {
      gw.advance(16 * MINUTE)
      t.equal((await browser.get('/api/auth/session')).json.expired, true, `round ${round}: lapsed`)
      const refresh = await browser.post('/api/auth/refresh')
      t.equal(refresh.status, 200, `round ${round}: ${refresh.text}`)
      t.equal(refresh.json.signedIn, true)
      t.equal(refresh.json.userId, verify.json.userId)
      t.ok(
        Date.parse(refresh.json.expiresAt) > gw.clock.now() + 13 * MINUTE,
        'a fresh 15 minutes, less the expiry margin',
      )
      t.notOk('sessionToken' in refresh.json, 'a cookie session gets no token in the body')
      t.equal(refresh.setCookies.length, 1)
      t.equal((await browser.get('/api/auth/me')).status, 200, 'the renewed token works upstream')
    }
    const sent = gw.sandbox.control.requestsTo('POST /auth/refresh').map((r) => r.headers.cookie)
    t.not(sent[0], sent[1], 'the second refresh used the cookie the first one rotated in')
  },
)

t.test(
  'a token the upstream refuses while the gateway held it valid is SESSION_EXPIRED with a challenge',
  async (t) => {
    const gw = await startAuthGateway(t)
    const browser = gw.client()
    await signInThroughGateway(browser, newWallet())
    // Only the upstream's clock moves: its token lapses while ours still looks good.
    gw.sandbox.control.advanceTime(16 * MINUTE)
    for (const path of ['/api/auth/me', '/api/v1/orders']) {
      const res = await browser.get(path)
      t.equal(res.status, 401, path)
      t.equal(res.json.code, 'SESSION_EXPIRED', path)
      t.type(res.json.challenge.message, 'string', `${path}: with a ready message`)
    }
  },
)

t.test('history validates its page before anything else', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  await signInThroughGateway(browser, newWallet())
  for (const query of ['current=0', 'limit=101', 'limit=abc', 'current=-1', 'current=1.5']) {
    const res = await browser.get(`/api/v1/orders?${query}`)
    t.equal(res.status, 400, query)
    t.equal(res.json.code, 'VALIDATION_FAILED', query)
  }
  const ok = await browser.get('/api/v1/orders?limit=100&current=3')
  t.equal(ok.status, 200)
  t.same(ok.json.items, [], 'a page past the last is empty')
  t.equal(gw.sandbox.control.requestsTo('GET /v1/orders')[0]?.url, '/v1/orders?current=3&limit=100')
})

t.test('refresh against a failing upstream is that failure, not a request to sign again', async (t) => {
  const gw = await startAuthGateway(t)
  const app = gw.client(null)
  const { verify } = await signInThroughGateway(app, newWallet(), '1', { 'x-session-mode': 'token' })
  const bearer = { authorization: `Bearer ${verify.json.sessionToken}` }
  app.cookies.clear()

  gw.sandbox.control.fault('POST /auth/refresh', { kind: 'error500' })
  const failed = await app.post('/api/auth/refresh', { headers: bearer })
  t.equal(failed.status, 502)
  t.equal(failed.json.code, 'UPSTREAM_ERROR')
  t.notOk('challenge' in failed.json)
  t.equal(gw.sandbox.control.requestsTo('POST /auth/refresh').length, 1, 'a POST is never retried')

  gw.sandbox.control.fault('POST /auth/refresh', { kind: 'status', status: 200, body: '{}' })
  const empty = await app.post('/api/auth/refresh', { headers: bearer })
  t.equal(empty.json.code, 'SESSION_EXPIRED', 'a success without a token cannot renew anything')
  t.type(empty.json.challenge.message, 'string')
  t.ok(gw.logs.lines().some((l) => l.msg === 'refresh answered without an access token'))

  gw.sandbox.control.setRefreshWorks(true)
  const renewed = await app.post('/api/auth/refresh', { headers: bearer })
  t.equal(renewed.status, 200)
  t.type(renewed.json.sessionToken, 'string', 'a Bearer client gets its renewed token in the body')
  t.not(renewed.json.sessionToken, verify.json.sessionToken)
})

t.test('refresh without a session is AUTH_REQUIRED', async (t) => {
  const gw = await startAuthGateway(t)
  const res = await gw.client().post('/api/auth/refresh')
  t.equal(res.status, 401)
  t.equal(res.json.code, 'AUTH_REQUIRED')
  t.equal(gw.sandbox.control.requestsTo('POST /auth/refresh').length, 0)
})
