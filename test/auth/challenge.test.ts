// GET /api/auth/siwx/challenge: the upstream's nonce, and for a given wallet a ready EIP-4361 message
// for our public host, including for nonces EIP-4361 itself would not accept.
import t from 'tap'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { SITE, startAuthGateway } from './client.js'
import { verifyThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

t.test('without a wallet the challenge is the upstream nonce alone', async (t) => {
  const gw = await startAuthGateway(t)
  const res = await gw.client().get('/api/auth/siwx/challenge')
  t.equal(res.status, 200)
  t.same(Object.keys(res.json), ['nonce'])
  t.match(res.json.nonce, /^\S+$/)
  t.equal(res.headers.get('cache-control'), 'no-store', 'a nonce is never cached')
  t.equal(gw.sandbox.control.requestsTo('GET /auth/siwx/challenge').length, 1)
})

t.test('with address and chainId the challenge has a valid EIP-4361 message for PUBLIC_ORIGIN', async (t) => {
  const gw = await startAuthGateway(t)
  const wallet = newWallet()
  for (const chainId of ['1', 'eip155:137']) {
    const res = await gw
      .client()
      .get(`/api/auth/siwx/challenge?address=${wallet.address.toLowerCase()}&chainId=${chainId}`)
    t.equal(res.status, 200, res.text)
    const fields = parseSiweMessage(res.json.message)
    t.equal(fields.domain, SITE, 'domain is host and port of PUBLIC_ORIGIN')
    t.equal(fields.scheme, 'http', 'a scheme other than https is spelled out')
    t.equal(fields.uri, 'http://localhost:3000')
    t.equal(fields.address, wallet.address, 'the address in checksum form')
    t.equal(fields.chainId, chainId === '1' ? 1 : 137)
    t.equal(fields.nonce, res.json.nonce)
    t.equal(fields.version, '1')
    t.ok(
      validateSiweMessage({
        message: fields,
        domain: SITE,
        address: wallet.address,
        time: new Date(gw.clock.now()),
      }),
    )
    t.ok(
      fields.expirationTime && fields.expirationTime.getTime() > gw.clock.now(),
      'with an expiry in the future',
    )
  }
})

t.test(
  'over https with the default port, the domain is the bare host and the scheme is implied',
  async (t) => {
    const gw = await startAuthGateway(t, { env: { PUBLIC_ORIGIN: 'https://app.example' } })
    const wallet = newWallet()
    const res = await gw
      .client('https://app.example')
      .get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
    t.match(res.json.message, /^app\.example wants you to sign in with your Ethereum account:\n/)
    t.equal(parseSiweMessage(res.json.message).uri, 'https://app.example')
  },
)

t.test(
  'bad challenge parameters are VALIDATION_FAILED naming the field, without an upstream call',
  async (t) => {
    const gw = await startAuthGateway(t)
    const wallet = newWallet()
    // One letter's case flipped: a mixed-case address whose checksum is wrong.
    const at = [...wallet.address].findIndex((c, i) => i > 1 && /[a-f]/i.test(c))
    const letter = wallet.address.charAt(at)
    const flipped = letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()
    const badChecksum = wallet.address.slice(0, at) + flipped + wallet.address.slice(at + 1)
    const cases: Array<[string, string]> = [
      [`address=${wallet.address}`, 'query.chainId'],
      ['chainId=1', 'query.address'],
      ['address=0x1234&chainId=1', 'query.address'],
      [`address=${badChecksum}&chainId=1`, 'query.address'],
      [`address=${wallet.address}&chainId=solana:mainnet`, 'query.chainId'],
      [`address=${wallet.address}&chainId=0`, 'query.chainId'],
      [`address=${wallet.address}&chainId=1.5`, 'query.chainId'],
    ]
    for (const [query, path] of cases) {
      const res = await gw.client().get(`/api/auth/siwx/challenge?${query}`)
      t.equal(res.status, 400, query)
      t.equal(res.json.code, 'VALIDATION_FAILED', query)
      t.same(
        res.json.errors.map((e: { path: string }) => e.path),
        [path],
        query,
      )
    }
    t.equal(gw.sandbox.control.requestsTo('GET /auth/siwx/challenge').length, 0)
  },
)

t.test(
  'a nonce EIP-4361 would refuse is still carried verbatim, and the message verifies locally',
  async (t) => {
    const gw = await startAuthGateway(t)
    const browser = gw.client()
    const wallet = newWallet()
    for (const nonce of ['ab-12_x.y~Z', 'short']) {
      gw.sandbox.control.fault('GET /auth/siwx/challenge', {
        kind: 'status',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nonce, lifetime: 300 }),
      })
      const res = await browser.get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
      t.equal(res.status, 200)
      t.equal(res.json.nonce, nonce)
      t.equal(res.json.lifetime, 300, 'fields the upstream adds are passed through')
      t.match(
        res.json.message,
        new RegExp(`\\nNonce: ${nonce.replace(/[.~]/g, '\\$&')}\\nIssued At: `),
        'the Nonce line has the upstream nonce',
      )
      t.match(res.json.message, /^http:\/\/localhost:3000 wants you to sign in with your Ethereum account:\n/)

      // The gateway's own checks accept it; the sandbox, which never issued that nonce, refuses it.
      const message: string = res.json.message
      const { verify } = await verifyThroughGateway(browser, wallet, message)
      t.equal(verify.json.code, 'NONCE_INVALID', 'judged by the upstream, not refused as malformed')
      const sent = gw.sandbox.control.requestsTo('POST /auth/siwx/verify').at(-1)?.body as { message: string }
      t.equal(sent.message, message, 'the upstream got the message exactly as signed')
    }
  },
)

t.test('a nonce that cannot sit on one line gets no message, only the nonce', async (t) => {
  const gw = await startAuthGateway(t)
  const wallet = newWallet()
  for (const nonce of ['two words', 'line\nbreak']) {
    gw.sandbox.control.fault('GET /auth/siwx/challenge', {
      kind: 'status',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nonce }),
    })
    const res = await gw.client().get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
    t.equal(res.status, 200)
    t.same(res.json, { nonce }, JSON.stringify(nonce))
  }
})

t.test('an upstream challenge without a nonce is UPSTREAM_BAD_RESPONSE', async (t) => {
  const gw = await startAuthGateway(t)
  gw.sandbox.control.fault('GET /auth/siwx/challenge', {
    kind: 'status',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"token":"x"}',
    count: 3,
  })
  const res = await gw.client().get('/api/auth/siwx/challenge')
  t.equal(res.status, 502)
  t.equal(res.json.code, 'UPSTREAM_BAD_RESPONSE')
})

t.test(
  'a PUBLIC_ORIGIN host EIP-4361 builders refuse: a warning at start, challenges without message',
  async (t) => {
    const origin = 'http://gateway:3000'
    const gw = await startAuthGateway(t, { env: { PUBLIC_ORIGIN: origin } })
    t.ok(
      gw.logs.lines().some((l) => l.level === 40 && l.domain === 'gateway:3000'),
      'the operator is told',
    )
    const wallet = newWallet()
    const client = gw.client(origin)
    const res = await client.get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
    t.equal(res.status, 200)
    t.same(Object.keys(res.json), ['nonce'])

    // A client that lays the message out itself for that host is still held to it, and signs in.
    const message = [
      'http://gateway:3000 wants you to sign in with your Ethereum account:',
      wallet.address,
      '',
      'URI: http://gateway:3000',
      'Version: 1',
      'Chain ID: 1',
      `Nonce: ${res.json.nonce}`,
      `Issued At: ${new Date(gw.clock.now()).toISOString()}`,
    ].join('\n')
    const { verify } = await verifyThroughGateway(client, wallet, message)
    t.equal(verify.status, 201, verify.text)
  },
)
