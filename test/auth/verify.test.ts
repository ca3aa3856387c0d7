// POST /api/auth/siwx/verify when something is wrong: each upstream refusal mapped to its code, and
// EIP-4361 messages checked by the gateway before the upstream sees them.
import t from 'tap'
import { createSiweMessage } from 'viem/siwe'
import { assertProblem } from '../helpers/problem.js'
import { SITE, startAuthGateway } from './client.js'
import { signedBody, signInThroughGateway, verifyThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { loadConfig } from '../../src/config.js'

/** A verify body as given: for the claims a wallet signing in for itself would not make. */
const verifyBody = (address: string, message: string, signature: string, chainId = '1') => ({
  body: { data: { chainId, accountAddress: address }, message, signature },
})

t.test('a nonce is single-use: verifying the same signed message twice is NONCE_INVALID', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const wallet = newWallet()
  const first = await signInThroughGateway(browser, wallet)
  t.equal(first.verify.status, 201)
  const again = await browser.post('/api/auth/siwx/verify', { body: first.body })
  assertProblem(
    t,
    { statusCode: again.status, headers: Object.fromEntries(again.headers), body: again.text },
    'NONCE_INVALID',
  )
  t.equal(again.setCookies.length, 0, 'a refused sign-in sets no cookie')
})

t.test('a bad signature is SIGNATURE_INVALID, and a retry with the same nonce then succeeds', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const wallet = newWallet()
  const challenge = await browser.get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
  const message: string = challenge.json.message
  const bad = await browser.post('/api/auth/siwx/verify', {
    body: await signedBody(wallet, message, { signer: newWallet() }),
  })
  const problem = assertProblem(
    t,
    { statusCode: bad.status, headers: Object.fromEntries(bad.headers), body: bad.text },
    'SIGNATURE_INVALID',
  )
  t.notMatch(problem.detail, /EVM signature verification/, 'the upstream text is not passed on')
  t.equal(
    gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length,
    1,
    'the upstream judged the signature',
  )
  const { verify: good } = await verifyThroughGateway(browser, wallet, message)
  t.equal(good.status, 201, 'the same nonce still works after a failed attempt')
  t.equal(good.json.address, wallet.address)
})

t.test('a message without a Nonce line is NONCE_MISSING', async (t) => {
  const gw = await startAuthGateway(t)
  const browser = gw.client()
  const wallet = newWallet()

  const { verify: res } = await verifyThroughGateway(browser, wallet, 'Sign in to the swap service')
  assertProblem(
    t,
    { statusCode: res.status, headers: Object.fromEntries(res.headers), body: res.text },
    'NONCE_MISSING',
  )
  t.equal(
    gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length,
    0,
    'a plain message is refused by the gateway, without an upstream call',
  )

  const challenge = await browser.get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
  const message = (challenge.json.message as string).replace(/\nNonce: .*\n/, '\n')
  const { verify: siwe } = await verifyThroughGateway(browser, wallet, message)
  assertProblem(
    t,
    { statusCode: siwe.status, headers: Object.fromEntries(siwe.headers), body: siwe.text },
    'NONCE_MISSING',
  )
  t.equal(
    gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length,
    0,
    'an EIP-4361 one is refused by the gateway, without an upstream call',
  )
})

t.test(
  "with SIWX_ALLOW_BARE_MESSAGES=true the upstream's bare `Nonce: <nonce>` message signs in",
  async (t) => {
    const gw = await startAuthGateway(t, { env: { SIWX_ALLOW_BARE_MESSAGES: 'true' } })
    const browser = gw.client()
    const wallet = newWallet()
    const { nonce } = (await browser.get('/api/auth/siwx/challenge')).json
    const { verify: res } = await verifyThroughGateway(browser, wallet, `Nonce: ${nonce}`)
    t.equal(res.status, 201, res.text)

    // Still bound to the wallet a challenge named.
    const { nonce: bound } = (
      await browser.get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
    ).json
    const other = await verifyThroughGateway(gw.client(), newWallet(), `Nonce: ${bound}`)
    t.equal(other.verify.json.code, 'SIGNATURE_INVALID', 'a nonce issued for another address')
    t.match(other.verify.json.detail, /issued for another address/)
  },
)

t.test(
  'SIWX_ALLOW_BARE_MESSAGES is false unless set to true; another value stops start-up naming it',
  async (t) => {
    t.equal(loadConfig({}).auth.allowBareMessages, false)
    t.equal(loadConfig({ SIWX_ALLOW_BARE_MESSAGES: 'true' }).auth.allowBareMessages, true)
    t.throws(
      () => loadConfig({ SIWX_ALLOW_BARE_MESSAGES: 'yes' }),
      /SIWX_ALLOW_BARE_MESSAGES: must be true or false/,
    )
  },
)

t.test('a wrong tenant key is UPSTREAM_AUTH_FAILED, logged at error level without the key', async (t) => {
  const wrongKey = 'not-the-tenant-key-of-this-upstream-42'
  const gw = await startAuthGateway(t, { env: { TENANT_API_KEY: wrongKey } })
  const browser = gw.client()
  const { verify } = await signInThroughGateway(browser, newWallet())
  assertProblem(
    t,
    { statusCode: verify.status, headers: Object.fromEntries(verify.headers), body: verify.text },
    'UPSTREAM_AUTH_FAILED',
  )
  t.equal(verify.setCookies.length, 0)
  t.ok(gw.logs.lines().some((l) => l.level === 50 && l.msg === 'upstream answered with an error'))
  t.notOk(gw.logs.text().includes(wrongKey), 'the key is not in the logs')
  t.notOk(verify.text.includes(wrongKey))
})

t.test(
  'an EIP-4361 message minted for another site, wallet, chain or time is refused before the upstream',
  async (t) => {
    const gw = await startAuthGateway(t)
    const browser = gw.client()
    const wallet = newWallet()
    const now = new Date(gw.clock.now())
    const base = {
      address: wallet.address,
      chainId: 1,
      domain: SITE,
      uri: 'http://localhost:3000',
      scheme: 'http',
      version: '1' as const,
      issuedAt: now,
    }
    const cases: Array<
      [string, Omit<Parameters<typeof createSiweMessage>[0], 'nonce'>, { address?: string; chainId?: string }]
    > = [
      ['another domain', { ...base, domain: 'evil.example', scheme: undefined }, {}],
      ['another port of our host', { ...base, domain: 'localhost:3001' }, {}],
      ['another scheme', { ...base, scheme: 'https' }, {}],
      ['another wallet than data.accountAddress', base, { address: newWallet().address }],
      ['another chain than data.chainId', base, { chainId: '137' }],
      ['a non-EVM data.chainId', base, { chainId: 'solana:mainnet' }],
      ['an expired message', { ...base, expirationTime: new Date(now.getTime() - 1000) }, {}],
      ['a message not valid yet', { ...base, notBefore: new Date(now.getTime() + 60_000) }, {}],
    ]
    for (const [name, fields, data] of cases) {
      const { nonce } = (await browser.get('/api/auth/siwx/challenge')).json
      const message = createSiweMessage({ ...fields, nonce })
      const signature = await wallet.signMessage({ message })
      const res = await browser.post(
        '/api/auth/siwx/verify',
        verifyBody(data.address ?? wallet.address, message, signature, data.chainId ?? '1'),
      )
      t.equal(res.status, 401, name)
      t.equal(res.json.code, 'SIGNATURE_INVALID', name)
    }
    const hidden = `Welcome!\n${createSiweMessage({ ...base, domain: 'evil.example', nonce: 'abcdefgh1' })}`
    const { verify: res } = await verifyThroughGateway(browser, wallet, hidden)
    t.equal(res.json.code, 'SIGNATURE_INVALID', 'a SIWx preamble below a first line does not dodge the check')
    const solana = `evil.example wants you to sign in with your Solana account:\nabc\n\nNonce: ${'x'.repeat(10)}`
    const other = await browser.post('/api/auth/siwx/verify', verifyBody(wallet.address, solana, '0x00'))
    t.equal(
      other.json.code,
      'SIGNATURE_INVALID',
      'a CAIP-122 message for another chain is held to our domain too',
    )
    t.equal(gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length, 0, 'none reached the upstream')

    const { nonce } = (await browser.get('/api/auth/siwx/challenge')).json
    const ours = createSiweMessage({ ...base, nonce, address: wallet.address.toLowerCase() as `0x${string}` })
    const ok = await browser.post(
      '/api/auth/siwx/verify',
      verifyBody(wallet.address.toLowerCase(), ours, await wallet.signMessage({ message: ours }), 'eip155:1'),
    )
    t.equal(
      ok.status,
      201,
      'a message the client built itself for our site, CAIP-2 chain id, lower-case address',
    )
  },
)

t.test(
  'a malformed verify body is VALIDATION_FAILED naming each bad field, without an upstream call',
  async (t) => {
    const gw = await startAuthGateway(t)
    const browser = gw.client()
    const bodies: Array<[string, unknown, string[]]> = [
      ['no body fields', {}, ['body.data', 'body.message', 'body.signature']],
      [
        'chainId as a number',
        { data: { chainId: 1, accountAddress: '0xabc' }, message: 'm', signature: '0x1' },
        ['body.data.chainId'],
      ],
      [
        'empty chain id and signature: one error each',
        { data: { chainId: '', accountAddress: '0xabc' }, message: 'm', signature: '' },
        ['body.data.chainId', 'body.signature'],
      ],
      [
        'empty message',
        { data: { chainId: '1', accountAddress: '0xabc' }, message: '', signature: '0x1' },
        ['body.message'],
      ],
      [
        'huge message',
        { data: { chainId: '1', accountAddress: '0xabc' }, message: 'x'.repeat(5000), signature: '0x1' },
        ['body.message'],
      ],
    ]
    for (const [name, body, paths] of bodies) {
      const res = await browser.post('/api/auth/siwx/verify', { body })
      t.equal(res.json.code, 'VALIDATION_FAILED', name)
      t.same(res.json.errors.map((e: { path: string }) => e.path).sort(), paths.sort(), name)
    }
    const mode = await browser.post('/api/auth/siwx/verify', {
      body: { data: { chainId: '1', accountAddress: '0xabc' }, message: 'm', signature: '0x1' },
      headers: { 'x-session-mode': 'jwt' },
    })
    t.equal(mode.json.code, 'VALIDATION_FAILED', 'an unknown X-Session-Mode')
    t.equal(gw.sandbox.control.requestsTo('POST /auth/siwx/verify').length, 0)
  },
)
