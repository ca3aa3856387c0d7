// A slow wallet (a hardware key, a deep link to a wallet app): the message expires when its nonce
// does (5 minutes, the sandbox's nonce lifetime), and a verify refused because the message or the
// nonce has lapsed carries a fresh challenge for the same wallet and page, so one more signature
// signs in. Other refusals carry none.
import t from 'tap'
import { parseSiweMessage } from 'viem/siwe'
import { newWallet } from '../helpers/wallet.js'
import { PUBLIC_ORIGIN, startAuthGateway } from './client.js'
import { signedBody, verifyThroughGateway } from '../helpers/sign-in.js'

const NONCE_LIFE_MS = 5 * 60_000
const CHALLENGE = '/api/auth/siwx/challenge'

t.test("the message's Expiration Time is no later than its nonce lives", async (t) => {
  const gw = await startAuthGateway(t)
  const wallet = newWallet()
  const res = await gw.client().get(`${CHALLENGE}?address=${wallet.address}&chainId=1`)
  const { issuedAt, expirationTime } = parseSiweMessage(res.json.message)
  t.equal(expirationTime!.getTime() - issuedAt!.getTime(), NONCE_LIFE_MS, 'five minutes')
  // A wallet that signs within the message's life signs in: the nonce is still good.
  gw.advance(NONCE_LIFE_MS - 1000)
  t.equal((await verifyThroughGateway(gw.client(), wallet, res.json.message)).verify.status, 201)
})

t.test('a message signed after it expired is refused with a fresh challenge to sign', async (t) => {
  const gw = await startAuthGateway(t)
  const wallet = newWallet()
  const page = gw.client('http://localhost:5173')
  const first = await page.get(`${CHALLENGE}?address=${wallet.address}&chainId=1`)
  gw.advance(NONCE_LIFE_MS + 1000)
  const late = await verifyThroughGateway(page, wallet, first.json.message)
  t.equal(late.verify.status, 401)
  t.equal(late.verify.json.code, 'SIGNATURE_INVALID')
  t.match(late.verify.json.detail, /expired/)
  const { challenge } = late.verify.json
  t.type(challenge?.nonce, 'string', 'a fresh nonce')
  t.not(challenge.nonce, first.json.nonce)
  const fields = parseSiweMessage(challenge.message)
  t.equal(fields.domain, 'localhost:5173', 'naming the page that asked')
  t.equal(fields.address, wallet.address, 'for the same wallet')
  t.equal(fields.nonce, challenge.nonce)
  const firstIssued = parseSiweMessage(first.json.message).issuedAt!.getTime()
  t.ok(fields.issuedAt!.getTime() >= firstIssued + NONCE_LIFE_MS, 'issued now')

  const again = await verifyThroughGateway(page, wallet, challenge.message)
  t.equal(again.verify.status, 201, 'one more signature signs in')
  t.equal((await page.get('/api/auth/session')).json.signedIn, true)
})

t.test('a nonce the upstream refuses as lapsed is NONCE_INVALID with a fresh challenge', async (t) => {
  // The upstream's own bare message names no time: only the upstream can tell the nonce lapsed.
  const gw = await startAuthGateway(t, { env: { SIWX_ALLOW_BARE_MESSAGES: 'true' } })
  const wallet = newWallet()
  const client = gw.client(null)
  const { nonce } = (await client.get(CHALLENGE)).json
  gw.advance(NONCE_LIFE_MS + 1000)
  const late = await verifyThroughGateway(client, wallet, `Nonce: ${nonce}`)
  t.equal(late.verify.status, 401)
  t.equal(late.verify.json.code, 'NONCE_INVALID')
  const { challenge } = late.verify.json
  t.match(challenge?.message, `Nonce: ${challenge?.nonce}`, 'a ready message')
  t.equal(parseSiweMessage(challenge.message).uri, PUBLIC_ORIGIN, 'for the public origin: no Origin sent')
  t.equal((await verifyThroughGateway(client, wallet, challenge.message)).verify.status, 201)

  // A used nonce is refused the same way, with something to sign next.
  const used = await verifyThroughGateway(gw.client(null), wallet, challenge.message)
  t.equal(used.verify.json.code, 'NONCE_INVALID', used.verify.text)
  t.type(used.verify.json.challenge?.message, 'string')
})

t.test('a refusal a new signature cannot cure carries no challenge', async (t) => {
  const gw = await startAuthGateway(t)
  const wallet = newWallet()
  const client = gw.client()
  const res = await client.get(`${CHALLENGE}?address=${wallet.address}&chainId=1`)
  const other = newWallet()
  const wrong = await client.post('/api/auth/siwx/verify', {
    body: await signedBody(wallet, res.json.message, { signer: other }),
  })
  t.equal(wrong.json.code, 'SIGNATURE_INVALID')
  t.equal(wrong.json.challenge, undefined, 'a wrong signature: the same challenge stays usable')
  const foreign = await verifyThroughGateway(gw.client('http://localhost:5173'), wallet, res.json.message)
  t.equal(foreign.verify.json.code, 'SIGNATURE_INVALID')
  t.equal(foreign.verify.json.challenge, undefined, 'a message for another site')
})

t.test('when no fresh nonce can be had, the refusal comes alone', async (t) => {
  const gw = await startAuthGateway(t)
  const wallet = newWallet()
  const client = gw.client()
  const res = await client.get(`${CHALLENGE}?address=${wallet.address}&chainId=1`)
  gw.advance(NONCE_LIFE_MS + 1000)
  gw.sandbox.control.fault('GET /auth/siwx/challenge', { kind: 'error500', count: 10 })
  const late = await verifyThroughGateway(client, wallet, res.json.message)
  t.equal(late.verify.status, 401)
  t.equal(late.verify.json.code, 'SIGNATURE_INVALID')
  t.equal(late.verify.json.challenge, undefined)
})
