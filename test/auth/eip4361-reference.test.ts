// The gateway's own EIP-55 and EIP-4361 code held to a reference implementation (viem, which the
// tests' wallets and the sandbox use) on random inputs: same checksums, same verdicts on addresses,
// and messages that each side writes and the other reads back field for field.
import fc from 'fast-check'
import { isDeepStrictEqual as deepEqual } from 'node:util'
import t from 'tap'
import { getAddress as viemGetAddress, isAddress as viemIsAddress } from 'viem'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { getAddress, isAddress } from '../../src/auth/address.js'
import { buildMessage, messageProblem, readMessage } from '../../src/auth/siwe-message.js'

const SEED = 4361
const hex40 = fc.stringMatching(/^[0-9a-f]{40}$/)
/** An address in a random mix of cases, so most are wrong checksums and a few are right ones. */
const anyCase = fc
  .tuple(
    hex40,
    fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    fc.constantFrom('check', 'lower', 'mix'),
  )
  .map(([hex, upper, how]) => {
    if (how === 'lower') return `0x${hex}`
    if (how === 'check') return viemGetAddress(`0x${hex}`)
    return `0x${[...hex].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}`
  })

t.test('EIP-55: the same checksum and the same verdict as the reference', async (t) => {
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(
        anyCase,
        (address) =>
          getAddress(address) === viemGetAddress(address) && isAddress(address) === viemIsAddress(address),
      ),
      { seed: SEED, numRuns: 500 },
    ),
  )
  for (const bad of ['0x123', `0X${'a'.repeat(40)}`, `0x${'g'.repeat(40)}`, `${'a'.repeat(42)}`, '']) {
    t.equal(isAddress(bad), false, bad)
    t.throws(() => getAddress(bad), bad)
  }
})

const fieldsOf = fc.record({
  address: hex40.map((h) => viemGetAddress(`0x${h}`)),
  domain: fc.constantFrom('app.example', 'localhost:5173', '127.0.0.1:3000', 'gateway.example.com:8443'),
  scheme: fc.constantFrom('https', 'http'),
  chainId: fc.integer({ min: 1, max: 2 ** 40 }),
  nonce: fc.stringMatching(/^[a-zA-Z0-9]{8,24}$/),
  statement: fc.stringMatching(/^[A-Za-z][A-Za-z ,.]{0,60}$/),
  issuedAt: fc.integer({ min: 1.7e12, max: 2.1e12 }).map((ms) => new Date(ms)),
  life: fc.integer({ min: 1000, max: 3_600_000 }),
})

t.test('EIP-4361: each side reads what the other writes, field for field', async (t) => {
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fieldsOf, ({ life, ...f }) => {
        const expirationTime = new Date(f.issuedAt.getTime() + life)
        const fields = { ...f, uri: `${f.scheme}://${f.domain}`, expirationTime }
        const ours = buildMessage(fields)
        const theirs = createSiweMessage({
          ...fields,
          scheme: f.scheme === 'https' ? undefined : f.scheme,
          version: '1',
        })
        if (ours !== theirs) throw new Error(`different texts:\n${ours}\n${theirs}`)
        const read = readMessage(theirs)
        if (read.kind !== 'eip4361') throw new Error(`not read: ${read.kind}`)
        const dated = { ...read.fields, issuedAt: new Date(read.fields.issuedAt), expirationTime }
        if (!deepEqual(dated, parseSiweMessage(theirs))) throw new Error(`read differently: ${theirs}`)
        const expect = {
          domain: f.domain,
          scheme: f.scheme,
          uri: `${f.scheme}://${f.domain}`,
          address: f.address.toLowerCase(),
          chainId: f.chainId,
          nonceLifetimeMs: 3_600_000,
        }
        return (
          messageProblem(read.fields, { ...expect, now: f.issuedAt }) === undefined &&
          /validity window/.test(messageProblem(read.fields, { ...expect, now: expirationTime }) ?? '')
        )
      }),
      { seed: SEED, numRuns: 200 },
    ),
  )
})

t.test('EIP-4361: the optional fields and the blank lines of a message without a statement', async (t) => {
  const base = {
    address: viemGetAddress(`0x${'ab'.repeat(20)}`),
    domain: 'app.example',
    uri: 'https://app.example/login',
    chainId: 10,
    nonce: 'abcdefgh12',
    issuedAt: new Date('2030-01-01T00:00:00Z'),
    version: '1' as const,
  }
  const full = createSiweMessage({
    ...base,
    statement: 'Hello.',
    expirationTime: new Date('2030-01-01T00:30:00Z'),
    notBefore: new Date('2030-01-01T00:00:10Z'),
    requestId: 'req-1',
    resources: ['https://app.example/a', 'ipfs://bafy'],
  })
  const read = readMessage(full)
  if (read.kind !== 'eip4361') throw new Error(read.kind)
  t.same(read.fields.resources, ['https://app.example/a', 'ipfs://bafy'])
  t.equal(read.fields.requestId, 'req-1')
  const expect = {
    domain: 'app.example',
    scheme: 'https',
    uri: 'https://app.example',
    address: base.address,
    chainId: 10,
    nonceLifetimeMs: 3_600_000,
  }
  t.match(messageProblem(read.fields, { ...expect, now: base.issuedAt }), /validity window/, 'not before')
  t.equal(messageProblem(read.fields, { ...expect, now: new Date('2030-01-01T00:00:10Z') }), undefined)

  const bare = createSiweMessage(base)
  t.match(bare, /0x[0-9a-fA-F]{40}\n\n\nURI: /, 'the ABNF: two blank lines without a statement')
  t.equal(readMessage(bare).kind, 'eip4361')
  t.equal(readMessage(bare.replace('\n\n\nURI', '\n\nURI')).kind, 'eip4361', 'one blank line is read too')
  t.equal(readMessage(`${full}\nExtra: 1`).kind, 'malformed', 'a trailing line')
  t.equal(
    readMessage(full.replace(/(Version: 1)\n(Chain ID: 10)/, '$2\n$1')).kind,
    'malformed',
    'fields out of order',
  )
  const undated = readMessage(full.replace(/Issued At: \S+/, 'Issued At: tomorrow'))
  if (undated.kind !== 'eip4361') throw new Error(undated.kind)
  t.match(
    messageProblem(undated.fields, { ...expect, now: new Date('2030-01-01T01:00:00Z') }),
    /not well-formed/,
  )
})
