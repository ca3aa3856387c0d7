// The EIP-4361 builder and reader on their own: the nonce fallback, and messages that try to slip a
// second Nonce line or a hidden preamble past the checks.
import t from 'tap'
import { buildMessage, evmChainId, messageProblem, readMessage } from '../../src/auth/siwe-message.js'
import { newWallet } from '../helpers/wallet.js'

const wallet = newWallet()
const now = new Date('2030-01-01T00:00:00.000Z')
const fields = {
  domain: 'app.example',
  scheme: 'https',
  uri: 'https://app.example',
  address: wallet.address,
  chainId: 1,
  statement: 'Sign in.',
  issuedAt: now,
  expirationTime: new Date(now.getTime() + 600_000),
}
const expect = {
  domain: 'app.example',
  scheme: 'https',
  uri: 'https://app.example',
  address: wallet.address,
  chainId: 1,
  now,
  nonceLifetimeMs: 300_000,
}

t.test('a conforming nonce: the library message, read back with every field', async (t) => {
  const message = buildMessage({ ...fields, nonce: 'abcDEF123' }) ?? ''
  t.match(
    message,
    /^app\.example wants you to sign in with your Ethereum account:\n0x[0-9a-fA-F]{40}\n\nSign in\.\n\n/,
  )
  const read = readMessage(message)
  t.equal(read.kind, 'eip4361')
  if (read.kind !== 'eip4361') return
  t.equal(read.nonce, 'abcDEF123')
  t.equal(messageProblem(read.fields, expect), undefined)
})

t.test('a non-conforming nonce is carried verbatim in the library layout and read back', async (t) => {
  for (const nonce of ['a-b_c.d~e', 'x', '0123456789-abcdef:ghi/+=']) {
    const message = buildMessage({ ...fields, nonce }) ?? ''
    t.ok(message.includes(`\nNonce: ${nonce}\nIssued At: 2030-01-01T00:00:00.000Z\n`), nonce)
    t.notMatch(message, /GatewayNonceStandIn/, 'the stand-in never shows')
    const read = readMessage(message)
    t.equal(read.kind, 'eip4361', nonce)
    if (read.kind === 'eip4361') {
      t.equal(read.nonce, nonce)
      t.equal(messageProblem(read.fields, expect), undefined, `${nonce}: passes the local checks`)
    }
  }
  t.equal(buildMessage({ ...fields, nonce: 'has space' }), undefined)
  t.equal(buildMessage({ ...fields, nonce: 'tab\there' }), undefined)
  t.equal(buildMessage({ ...fields, nonce: 'naïve' }), undefined, 'non-ASCII is not carried')
})

t.test(
  'messages that could make the upstream and the gateway read different things are malformed',
  async (t) => {
    const message = buildMessage({ ...fields, nonce: 'abcDEF123' }) ?? ''
    t.equal(readMessage(message.replace('Sign in.', 'Nonce: other1234')).kind, 'malformed', 'two Nonce lines')
    t.equal(readMessage(`Hello\n${message}`).kind, 'malformed', 'a preamble below the first line')
    t.equal(
      readMessage(message.replace('\nNonce: abcDEF123', '\nNonce: abc DEF')).kind,
      'malformed',
      'a spaced nonce',
    )
    t.equal(readMessage(message.replace(/\nURI: .*/, '')).kind, 'malformed', 'a required field missing')
    t.equal(readMessage(message.replace(/\nNonce: .*/, '')).kind, 'no-nonce')
    t.same(readMessage('Nonce: abc'), { kind: 'plain', nonce: 'abc' })
    t.same(readMessage('Sign this'), { kind: 'plain', nonce: undefined })
    t.equal(readMessage('Nonce: abc\nNonce: def').kind, 'malformed', 'two Nonce lines in a bare message')
    t.match(readMessage('app.example wants you to sign in with your Solana account:\nabc\n\nNonce: 1'), {
      kind: 'other-chain',
      domain: 'app.example',
    })
  },
)

t.test('the local checks name what is wrong', async (t) => {
  const read = readMessage(buildMessage({ ...fields, nonce: 'abcDEF123' }) ?? '')
  if (read.kind !== 'eip4361') throw new Error('expected an EIP-4361 message')
  t.match(
    messageProblem(read.fields, { ...expect, domain: 'other.example' }),
    /for app\.example, not this site/,
  )
  t.match(messageProblem(read.fields, { ...expect, scheme: 'http' }), /another scheme/)
  t.match(messageProblem(read.fields, { ...expect, chainId: 5 }), /another chain/)
  t.match(messageProblem(read.fields, { ...expect, address: newWallet().address }), /another address/)
  t.match(messageProblem(read.fields, { ...expect, address: 'bc1qxyz' }), /not an Ethereum address/)
  t.match(
    messageProblem(read.fields, { ...expect, now: new Date(now.getTime() + 600_000) }),
    /validity window/,
  )
})

t.test("the URI must be on the site's origin, and the times within the window", async (t) => {
  const problemOf = (change: Partial<typeof fields>, at = now) => {
    const read = readMessage(buildMessage({ ...fields, ...change, nonce: 'abcDEF123' }) ?? '')
    if (read.kind !== 'eip4361') throw new Error('expected an EIP-4361 message')
    return messageProblem(read.fields, { ...expect, now: at })
  }
  const ms = (offset: number) => new Date(now.getTime() + offset)
  t.equal(problemOf({ uri: 'https://app.example/sign-in' }), undefined, 'a page of the site')
  for (const uri of [
    'https://evil.example',
    'http://app.example',
    'https://app.example:444',
    'https://u@app.example',
  ]) {
    t.match(problemOf({ uri }), /URI is not https:\/\/app\.example/, uri)
  }
  t.equal(
    problemOf({ issuedAt: ms(60_000), expirationTime: ms(120_000) }),
    undefined,
    '60 s ahead: a fast clock',
  )
  t.match(problemOf({ issuedAt: ms(61_000), expirationTime: ms(120_000) }), /Issued At is in the future/)
  t.equal(problemOf({ issuedAt: ms(-300_000), expirationTime: ms(1) }), undefined, 'as old as the nonce')
  t.match(
    problemOf({ issuedAt: ms(-300_001), expirationTime: ms(60_000) }),
    /expired/,
    'older than the nonce',
  )
  t.equal(problemOf({ expirationTime: ms(3_600_000) }), undefined, 'valid for an hour')
  t.match(problemOf({ expirationTime: ms(3_600_001) }), /more than an hour/)
})

t.test('chain ids: decimal or CAIP-2 eip155, nothing else', async (t) => {
  t.equal(evmChainId('1'), 1)
  t.equal(evmChainId('eip155:8453'), 8453)
  for (const bad of ['0', '01', 'eip155:', 'solana:5eykt', '1.0', ' 1'])
    t.equal(evmChainId(bad), undefined, bad)
})
