// Logout ends the session everywhere: a copy of the cookie or of the Bearer token taken before it is
// no session afterwards, on this instance (memory) and on every instance sharing Redis. With Redis
// away, sessions keep working (checks fail open) and the instance says so.
import t, { type Test } from 'tap'
import { redisServerInstalled, startPrivateRedis } from '../ops/private-redis.js'
import { Client, startAuthGateway } from './client.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const sharedRedis = process.env.REDIS_URL
const noRedis = sharedRedis ? false : 'REDIS_URL is not set: the shared-Redis tests need a real Redis'
const noRedisServer = redisServerInstalled()
  ? false
  : 'redis-server is not installed: cannot stop a private Redis'

/** What a holder of a session sees on the three routes that read one. */
async function assertSignedOut(t: Test, client: Client, headers: Record<string, string> = {}) {
  t.same(
    (await client.get('/api/auth/session', { headers })).json,
    { signedIn: false },
    'session: signed out',
  )
  const me = await client.get('/api/auth/me', { headers })
  t.equal(me.status, 401)
  t.equal(me.json.code, 'AUTH_REQUIRED', '/auth/me: no session')
  const history = await client.get('/api/v1/orders?current=1&limit=10', { headers })
  t.equal(history.json.code, 'AUTH_REQUIRED', 'history: no session')
}

async function assertSignedIn(t: Test, client: Client, headers: Record<string, string> = {}) {
  t.equal((await client.get('/api/auth/session', { headers })).json.signedIn, true, 'session: signed in')
  t.equal((await client.get('/api/auth/me', { headers })).status, 200, '/auth/me answers')
}

t.test('a copy of the session cookie taken before logout is no session afterwards', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  await signInThroughGateway(browser, newWallet())
  const thief = gw.client()
  thief.cookies.set('session', browser.cookies.get('session') ?? '')
  await assertSignedIn(t, thief)

  const logout = await browser.post('/api/auth/logout')
  t.equal(logout.status, 204)
  t.equal(browser.cookies.size, 0, 'the cookie is cleared')
  await assertSignedOut(t, thief)
  t.equal((await thief.post('/api/auth/refresh')).json.code, 'AUTH_REQUIRED', 'nor can it be renewed')
})

t.test('a copy of the Bearer session token taken before logout is no session afterwards', async (t) => {
  const gw = await startAuthGateway(t)
  const app = gw.client(null)
  const { verify } = await signInThroughGateway(app, newWallet(), '1', { 'x-session-mode': 'token' })
  const bearer = { authorization: `Bearer ${verify.json.sessionToken}` }
  // An app keeps no cookies: the token is its session.
  app.cookies.clear()
  const copy = gw.client(null)
  await assertSignedIn(t, copy, bearer)

  const logout = await app.post('/api/auth/logout', { headers: bearer })
  t.equal(logout.status, 204)
  await assertSignedOut(t, copy, bearer)
})

t.test('logout ends only its own session: another sign-in of the same wallet stays', async (t) => {
  const gw = await startAuthGateway(t)
  const wallet = newWallet()
  const phone = gw.client()
  const laptop = gw.client()
  await signInThroughGateway(phone, wallet)
  await signInThroughGateway(laptop, wallet)
  await phone.post('/api/auth/logout')
  await assertSignedOut(t, phone)
  await assertSignedIn(t, laptop)
})

t.test('logout on one instance ends the session on another sharing Redis', { skip: noRedis }, async (t) => {
  const a = await startAuthGateway(t, { env: { REDIS_URL: sharedRedis! } })
  const b = await startAuthGateway(t, { env: { REDIS_URL: sharedRedis!, UPSTREAM_URL: a.sandbox.url } })
  const browser = a.client()
  await signInThroughGateway(browser, newWallet())
  const onB = b.client()
  onB.cookies.set('session', browser.cookies.get('session') ?? '')
  await assertSignedIn(t, onB)

  t.equal((await browser.post('/api/auth/logout')).status, 204)
  await assertSignedOut(t, onB)
})

t.test(
  'with Redis away, sessions keep working and the instance reports it',
  { skip: noRedisServer },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const gw = await startAuthGateway(t, { env: { REDIS_URL: redis.url } })
    const browser = gw.client()
    await signInThroughGateway(browser, newWallet())
    const copy = gw.client()
    copy.cookies.set('session', browser.cookies.get('session') ?? '')

    await redis.stop()
    await assertSignedIn(t, browser)
    const ready = await browser.get('/readyz')
    t.equal(ready.status, 200, 'still ready')
    t.match(ready.json, { status: 'ready', degraded: { redis: /unreachable/ } }, 'a degraded member')
    const metrics = await gw.app.metrics.registry.getSingleMetricAsString(
      'gateway_session_revocation_failures_total',
    )
    t.match(metrics, /gateway_session_revocation_failures_total\{operation="check"\} [1-9]/, 'counted')

    t.equal((await browser.post('/api/auth/logout')).status, 204)
    await assertSignedOut(t, copy)
    t.pass('a logout during the outage still holds on the instance that received it')
  },
)
