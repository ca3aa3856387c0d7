// The sealed session: what the cookie looks like, and that anything but an intact seal of ours, still
// within its life, counts as no session at all. Key rotation: the first secret seals, all unseal.
import t from 'tap'
import { SessionSealer } from '../../src/auth/session-seal.js'
import { TEST_SESSION_SECRET } from '../helpers/gateway.js'
import { startAuthGateway } from './client.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const OLD_SECRET = 'old-session-secret-0123456789-abcdefghijk'
const NEW_SECRET = 'new-session-secret-0123456789-abcdefghijk'

t.test('the session cookie is small, HttpOnly, SameSite=Lax, and holds no readable token', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const { verify } = await signInThroughGateway(browser, newWallet())
  const cookie = browser.cookies.get('session') ?? ''
  t.ok(cookie.length > 0 && cookie.length < 2048, `well under 4 KB (${cookie.length} bytes)`)
  t.match(verify.setCookies[0], /; HttpOnly; SameSite=Lax$/)
  t.notMatch(verify.setCookies[0], /Secure|Domain=/, 'plain http: not Secure')
  t.notMatch(cookie, /eyJ/, 'the access token is encrypted, not merely encoded')
})

t.test('over https the cookie is __Host-session, Secure, Path=/', async (t) => {
  const origin = 'https://app.example'
  const gw = await startAuthGateway(t, { env: { PUBLIC_ORIGIN: origin } })
  const browser = gw.client(origin)
  const { verify } = await signInThroughGateway(browser, newWallet())
  t.equal(verify.status, 201)
  t.match(
    verify.setCookies[0],
    /^__Host-session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
  )
  t.equal((await browser.get('/api/auth/session')).json.signedIn, true)

  const renamed = gw.client(origin)
  renamed.cookies.set('session', browser.cookies.get('__Host-session') ?? '')
  t.same((await renamed.get('/api/auth/session')).json, { signedIn: false }, 'only the __Host- cookie counts')
  const logout = await browser.post('/api/auth/logout')
  t.match(
    logout.setCookies[0],
    /^__Host-session=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
  )
})

t.test('a tampered, truncated, foreign or malformed session counts as no session', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const { verify } = await signInThroughGateway(browser, newWallet(), '1', { 'x-session-mode': 'token' })
  const sealed: string = verify.json.sessionToken
  t.equal(browser.cookies.get('session'), sealed, 'the token is the cookie value')

  const middle = Math.floor(sealed.length / 2)
  const flip = (c: string) => (c === 'A' ? 'B' : 'A')
  // The very same session, sealed by a gateway that does not share our secret.
  const payload = await new SessionSealer([TEST_SESSION_SECRET]).unseal(sealed)
  t.match(payload, { v: 1, address: verify.json.address }, 'the seal holds the session')
  const foreign = await new SessionSealer([OLD_SECRET]).seal(payload)
  const wrongShape = await new SessionSealer([TEST_SESSION_SECRET]).seal({ v: 2, user: 'someone' })
  const variants: Array<[string, string]> = [
    [
      'one character changed',
      sealed.slice(0, middle) + flip(sealed.charAt(middle)) + sealed.slice(middle + 1),
    ],
    ['truncated', sealed.slice(0, -10)],
    ['sealed under another key', foreign],
    ['sealed by us, but not a session', wrongShape],
    ['not a seal at all', 'hello'],
    ['far too long', `${sealed}${'A'.repeat(5000)}`],
  ]
  for (const [name, value] of variants) {
    const viaCookie = gw.client()
    viaCookie.cookies.set('session', value)
    const bySession = await viaCookie.get('/api/auth/session')
    t.equal(bySession.status, 200, name)
    t.same(bySession.json, { signedIn: false }, `${name}: cookie`)
    const history = await viaCookie.get('/api/v1/orders')
    t.equal(history.json.code, 'AUTH_REQUIRED', `${name}: history needs a session`)
    const byBearer = await gw
      .client()
      .get('/api/auth/session', { headers: { authorization: `Bearer ${value}` } })
    t.same(byBearer.json, { signedIn: false }, `${name}: Bearer`)
  }
  t.equal(gw.sandbox.control.requestsTo('GET /v1/orders').length, 0, 'none reached the upstream')
})

t.test('key rotation: the first secret seals, every listed secret unseals', async (t) => {
  const before = await startAuthGateway(t, { env: { SESSION_SECRET: OLD_SECRET } })
  const browser = before.client()
  await signInThroughGateway(browser, newWallet())
  const oldCookie = browser.cookies.get('session') ?? ''

  // The same upstream, redeployed with a new first secret and the old one kept for unsealing.
  const upstream = { UPSTREAM_URL: before.sandbox.url }
  const rotated = await startAuthGateway(t, {
    env: { ...upstream, SESSION_SECRET: `${NEW_SECRET}, ${OLD_SECRET}` },
  })
  const carried = rotated.client()
  carried.cookies.set('session', oldCookie)
  t.equal(
    (await carried.get('/api/auth/session')).json.signedIn,
    true,
    'a session sealed under the old key still works',
  )
  t.equal((await carried.get('/api/auth/me')).status, 200, 'and reaches the upstream as the user')
  await signInThroughGateway(carried, newWallet())
  const newCookie = carried.cookies.get('session') ?? ''

  const newOnly = await startAuthGateway(t, { env: { ...upstream, SESSION_SECRET: NEW_SECRET } })
  const a = newOnly.client()
  a.cookies.set('session', newCookie)
  t.equal(
    (await a.get('/api/auth/session')).json.signedIn,
    true,
    'new sessions are sealed under the first secret',
  )
  const b = newOnly.client()
  b.cookies.set('session', oldCookie)
  t.same(
    (await b.get('/api/auth/session')).json,
    { signedIn: false },
    'once the old key is dropped, its sessions end',
  )
})

t.test('a session past its usable life (the 30-day refresh token) is no session at all', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const wallet = newWallet()
  await signInThroughGateway(browser, wallet)
  gw.advance(29 * 24 * 60 * 60 * 1000)
  t.same(
    (await browser.get('/api/auth/session')).json,
    { signedIn: false, expired: true, address: wallet.address, chainId: '1' },
    'lapsed, but still naming the wallet to sign with',
  )
  gw.advance(2 * 24 * 60 * 60 * 1000)
  t.same((await browser.get('/api/auth/session')).json, { signedIn: false })
  const refresh = await browser.post('/api/auth/refresh')
  t.equal(refresh.json.code, 'AUTH_REQUIRED')
})
