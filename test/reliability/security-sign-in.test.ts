// The security sweep of sign-in messages: each attack a signed message can carry, signed by the real
// key of the wallet it claims (so only the gateway's checks stand between it and a session): a URI
// naming another site, an Issued At in the future or older than its nonce, an Expiration Time a
// year ahead, a nonce the challenge issued for another wallet, and the upstream's bare message that
// names no site. Each is refused as 401 SIGNATURE_INVALID before the upstream sees it; the same
// wallet's untouched message then signs in, so the refusals are the checks' and nothing else's.
import t, { type Test } from 'tap'
import { createSiweMessage } from 'viem/siwe'
import type { PrivateKeyAccount } from 'viem'
import { PUBLIC_ORIGIN, SITE, startAuthGateway } from '../auth/client.js'
import { verifyThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const YEAR_MS = 365 * 24 * 3600_000

async function gateway(t: Test, env: Record<string, string> = {}) {
  const gw = await startAuthGateway(t, { env })
  const page = gw.client()
  const upstreamVerifies = () => gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length
  /** A challenge for `wallet` from the page: its nonce and the message the gateway wrote. */
  const challenge = async (wallet: PrivateKeyAccount) => {
    const res = await page.get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
    return res.json as { nonce: string; message: string }
  }
  /** A message for our site, as a client laying it out itself would write it, with `change` made. */
  const messageFor = (
    wallet: PrivateKeyAccount,
    nonce: string,
    change: Partial<Parameters<typeof createSiweMessage>[0]> = {},
  ) => {
    const now = new Date(gw.clock.now())
    return createSiweMessage({
      address: wallet.address,
      chainId: 1,
      domain: SITE,
      scheme: 'http',
      uri: PUBLIC_ORIGIN,
      version: '1',
      nonce,
      issuedAt: now,
      expirationTime: new Date(now.getTime() + 300_000),
      ...change,
    })
  }
  /** Signs `message` with `wallet`, posts it from the page, and holds it to a refusal before the upstream. */
  const refused = async (
    t: Test,
    name: string,
    wallet: PrivateKeyAccount,
    message: string,
    detail: RegExp,
  ) => {
    const before = upstreamVerifies()
    const { verify } = await verifyThroughGateway(page, wallet, message)
    t.equal(verify.status, 401, `${name}: ${verify.text}`)
    t.equal(verify.json?.code, 'SIGNATURE_INVALID', name)
    t.match(verify.json?.detail, detail, name)
    t.equal(verify.setCookies.length, 0, `${name}: no session`)
    t.equal(upstreamVerifies(), before, `${name}: the upstream never saw it`)
  }
  const signsIn = async (t: Test, name: string, wallet: PrivateKeyAccount, message: string) => {
    const { verify } = await verifyThroughGateway(gw.client(), wallet, message)
    t.equal(verify.status, 201, `${name}: ${verify.text}`)
  }
  return { gw, challenge, messageFor, refused, signsIn }
}

t.test('a message whose domain is this site and whose URI is another is refused', async (t) => {
  const { challenge, messageFor, refused, signsIn } = await gateway(t)
  const wallet = newWallet()
  const { nonce, message } = await challenge(wallet)
  const elsewhere = message.replace(`\nURI: ${PUBLIC_ORIGIN}\n`, '\nURI: https://evil.example\n')
  t.not(elsewhere, message, 'the URI line was replaced')
  await refused(t, 'the challenge message, URI replaced', wallet, elsewhere, /URI is not/)
  for (const uri of ['https://evil.example/login', 'http://localhost:3001', 'https://localhost:3000']) {
    await refused(t, uri, wallet, messageFor(wallet, nonce, { uri }), /URI is not/)
  }
  await signsIn(t, 'the untouched message', wallet, message)
})

t.test('a message issued in 2030, or older than its nonce can live, is refused', async (t) => {
  const { challenge, messageFor, refused, signsIn, gw } = await gateway(t)
  const wallet = newWallet()
  const { nonce, message } = await challenge(wallet)
  const in2030 = new Date('2030-01-01T00:00:00.000Z')
  await refused(
    t,
    'Issued At 2030',
    wallet,
    messageFor(wallet, nonce, { issuedAt: in2030, expirationTime: new Date(in2030.getTime() + 300_000) }),
    /Issued At is in the future/,
  )
  const now = gw.clock.now()
  await refused(
    t,
    'Issued At 61 s ahead',
    wallet,
    messageFor(wallet, nonce, { issuedAt: new Date(now + 61_000), expirationTime: new Date(now + 300_000) }),
    /Issued At is in the future/,
  )
  await refused(
    t,
    'no Expiration Time, issued 6 minutes ago',
    wallet,
    messageFor(wallet, nonce, { issuedAt: new Date(now - 360_000), expirationTime: undefined }),
    /expired/,
  )
  await signsIn(t, 'the untouched message', wallet, message)
})

t.test('a message valid for a year is refused', async (t) => {
  const { challenge, messageFor, refused, signsIn, gw } = await gateway(t)
  const wallet = newWallet()
  const { nonce, message } = await challenge(wallet)
  const now = gw.clock.now()
  await refused(
    t,
    'Expiration Time a year ahead',
    wallet,
    messageFor(wallet, nonce, { expirationTime: new Date(now + YEAR_MS) }),
    /more than an hour/,
  )
  await refused(
    t,
    'the challenge message, its Expiration Time moved a year ahead',
    wallet,
    message.replace(/\nExpiration Time: .*/, `\nExpiration Time: ${new Date(now + YEAR_MS).toISOString()}`),
    /more than an hour/,
  )
  await signsIn(
    t,
    'valid for exactly an hour',
    wallet,
    messageFor(wallet, nonce, { expirationTime: new Date(now + 3600_000) }),
  )
})

t.test("a nonce the challenge issued for one wallet is refused in another wallet's message", async (t) => {
  const { challenge, messageFor, refused, signsIn } = await gateway(t)
  const owner = newWallet()
  const thief = newWallet()
  const { nonce, message } = await challenge(owner)
  await refused(t, "another wallet's message", thief, messageFor(thief, nonce), /issued for another address/)
  await refused(
    t,
    'the challenge message, address replaced',
    thief,
    message.replace(owner.address, thief.address),
    /issued for another address/,
  )
  await signsIn(t, "the owner's message", owner, message)
})

t.test("the upstream's bare `Nonce:` message, which names no site, is refused", async (t) => {
  const { gw, refused } = await gateway(t)
  const wallet = newWallet()
  const { nonce } = (await gw.client().get('/api/auth/siwx/challenge')).json as { nonce: string }
  await refused(t, 'a bare message', wallet, `Nonce: ${nonce}`, /names no site/)
  await refused(
    t,
    'a bare message with text around it',
    wallet,
    `Welcome!\nNonce: ${nonce}\nThanks`,
    /names no site/,
  )

  const allowing = await gateway(t, { SIWX_ALLOW_BARE_MESSAGES: 'true' })
  const { nonce: fresh } = (await allowing.gw.client().get('/api/auth/siwx/challenge')).json as {
    nonce: string
  }
  await allowing.signsIn(t, 'with SIWX_ALLOW_BARE_MESSAGES=true', wallet, `Nonce: ${fresh}`)
})
