// Clocks differ between machines: a token within SESSION_EXPIRY_MARGIN_MS of its `exp` counts as
// lapsed for create, /api/auth/session shows the expiry moved forward by the margin, and should the
// upstream still answer a create made with a session's token with `userId: null`, the gateway says
// so in a warn line and a metric.
import { decodeJwt } from 'jose'
import t from 'tap'
import { SessionSealer } from '../../src/auth/session-seal.js'
import { TEST_SESSION_SECRET } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { startAuthGateway } from './client.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const MINUTE = 60_000

/** The access token's `exp` (ms), read from the sealed session the client holds. */
async function tokenExpiry(sealed: string): Promise<number> {
  const session = (await new SessionSealer([TEST_SESSION_SECRET]).unseal(sealed)) as { accessToken: string }
  return Number(decodeJwt(session.accessToken).exp) * 1000
}

t.test('the session shows its expiry SESSION_EXPIRY_MARGIN_MS before the token lapses', async (t) => {
  const gw = await startAuthGateway(t, { env: { SESSION_EXPIRY_MARGIN_MS: '120000' } })
  const browser = gw.client()
  const { verify } = await signInThroughGateway(browser, newWallet())
  const exp = await tokenExpiry(browser.cookies.get('session') ?? '')
  t.equal(Date.parse(verify.json.expiresAt), exp - 2 * MINUTE, 'verify: exp less the margin')
  const session = await browser.get('/api/auth/session')
  t.equal(Date.parse(session.json.expiresAt), exp - 2 * MINUTE, 'session: the same')

  gw.advance(exp - gw.clock.now() - 2 * MINUTE + 1_000)
  const p = picks(gw.sandbox.control.tokens())
  const create = await browser.post('/api/v1/orders/create', { body: orderBody(p) })
  t.equal(create.json.code, 'SESSION_EXPIRED', 'create refuses a token within the margin')
  t.type(create.json.challenge.nonce, 'string')
  t.equal(gw.sandbox.control.requestsTo('POST /v1/orders/create').length, 0, 'and makes no order')
})

t.test('an upstream that already holds the token lapsed: the order, a warn line and a metric', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  await signInThroughGateway(browser, newWallet())
  // The upstream's clock runs 20 minutes ahead of ours: it ignores the token beside the tenant key.
  gw.sandbox.control.advanceTime(20 * MINUTE)
  const p = picks(gw.sandbox.control.tokens())
  const create = await browser.post('/api/v1/orders/create', { body: orderBody(p) })
  t.equal(create.status, 201, 'the order is never hidden')
  t.equal(create.json.userId, null)

  const warned = gw.logs
    .lines()
    .filter((l) => l.level === 40 && /without the session's user/.test(String(l.msg)))
  t.equal(warned.length, 1, 'one warn line')
  t.notMatch(JSON.stringify(warned), /eyJ|session=/, 'without the token or the cookie')
  const metric = await gw.app.metrics.registry.getSingleMetricAsString('gateway_orders_unattributed_total')
  t.match(metric, /gateway_orders_unattributed_total 1$/m, 'counted')

  const anonymous = await gw.client().post('/api/v1/orders/create', { body: orderBody(p) })
  t.equal(anonymous.json.userId, null)
  t.match(
    await gw.app.metrics.registry.getSingleMetricAsString('gateway_orders_unattributed_total'),
    /gateway_orders_unattributed_total 1$/m,
    'an order made without a session is not counted',
  )
})
