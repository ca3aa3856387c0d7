// Sign-in from a page on another allowed origin (a partner site, a Vite dev server): the challenge's
// message names that page, so wallets do not flag it as phishing; verify holds the message to the
// request's own Origin, and, for clients without one, to any allowed origin.
import t from 'tap'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { orderBody, picks } from '../helpers/picks.js'
import { PUBLIC_ORIGIN, startAuthGateway } from './client.js'
import { signInThroughGateway, verifyThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const PARTNER = 'https://partner.example'
const VITE = 'http://localhost:5173'

async function setup(t: Parameters<typeof startAuthGateway>[0]) {
  return startAuthGateway(t, { env: { ALLOWED_ORIGINS: PARTNER } })
}

t.test(
  "the challenge's message names the asking page: its Origin, or PUBLIC_ORIGIN without one",
  async (t) => {
    const gw = await setup(t)
    const wallet = newWallet()
    const cases: Array<[string | null, string, string]> = [
      [PARTNER, 'partner.example wants you to sign in', 'https://partner.example'],
      [VITE, 'http://localhost:5173 wants you to sign in', 'http://localhost:5173'],
      [PUBLIC_ORIGIN, 'http://localhost:3000 wants you to sign in', 'http://localhost:3000'],
      [null, 'http://localhost:3000 wants you to sign in', 'http://localhost:3000'],
    ]
    for (const [origin, preamble, uri] of cases) {
      const res = await gw.client(origin).get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
      t.equal(res.status, 200, `${origin}`)
      t.ok(res.json.message.startsWith(preamble), `${origin}: ${preamble}`)
      t.equal(parseSiweMessage(res.json.message).uri, uri, `${origin}: URI ${uri}`)
    }
  },
)

t.test('a page on an allowed origin signs in with the message it was given', async (t) => {
  const gw = await setup(t)
  for (const origin of [PARTNER, VITE]) {
    const page = gw.client(origin)
    const { verify } = await signInThroughGateway(page, newWallet())
    t.equal(verify.status, 201, origin)
    t.equal(verify.headers.get('access-control-allow-origin'), origin)
    t.equal((await page.get('/api/auth/session')).json.signedIn, true, `${origin}: signed in`)
  }
})

t.test("verify refuses a message naming another site than the request's Origin", async (t) => {
  const gw = await setup(t)
  const wallet = newWallet()
  const challenge = await gw
    .client(PARTNER)
    .get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
  const verifies = gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length
  for (const origin of [PUBLIC_ORIGIN, VITE]) {
    const { verify } = await verifyThroughGateway(gw.client(origin), wallet, challenge.json.message)
    t.equal(verify.status, 401, `posted from ${origin}`)
    t.equal(verify.json.code, 'SIGNATURE_INVALID')
    t.match(verify.json.detail, /partner\.example, not this site/)
  }
  t.equal(
    gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length,
    verifies,
    'the upstream never saw them',
  )
  const { verify } = await verifyThroughGateway(gw.client(PARTNER), wallet, challenge.json.message)
  t.equal(verify.status, 201, 'the same message from its own page signs in')
})

t.test(
  'without an Origin (an app), a message for any allowed origin verifies, a foreign one does not',
  async (t) => {
    const gw = await setup(t)
    const wallet = newWallet()
    const app = gw.client(null)
    const forPartner = await gw
      .client(PARTNER)
      .get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
    t.equal((await verifyThroughGateway(app, wallet, forPartner.json.message)).verify.status, 201)

    const { nonce } = (await app.get('/api/auth/siwx/challenge')).json
    const foreign = createSiweMessage({
      domain: 'evil.example',
      uri: 'https://evil.example',
      address: wallet.address,
      chainId: 1,
      nonce,
      version: '1',
      issuedAt: new Date(gw.clock.now()),
    })
    // A fresh client: the first one now holds the session cookie, and a cookie without Origin is refused.
    const refused = (await verifyThroughGateway(gw.client(null), wallet, foreign)).verify
    t.equal(refused.status, 401)
    t.equal(refused.json.code, 'SIGNATURE_INVALID')
  },
)

t.test("a lapsed session's challenge names the page that asked", async (t) => {
  const gw = await setup(t)
  const page = gw.client(PARTNER)
  const wallet = newWallet()
  await signInThroughGateway(page, wallet)
  gw.advance(15 * 60_000)
  const create = await page.post('/api/v1/orders/create', {
    body: orderBody(picks(gw.sandbox.control.tokens())),
  })
  t.equal(create.json.code, 'SESSION_EXPIRED')
  t.match(create.json.challenge.message, /^partner\.example wants you to sign in/)
  t.equal((await verifyThroughGateway(page, wallet, create.json.challenge.message)).verify.status, 201)
})
