// Address minting and validation per chain family: minted deposit addresses validate for their
// own chain, real-world addresses validate, and corrupted or foreign ones do not.
import { bech32m } from '@scure/base'
import t from 'tap'
import type { AddressFormat } from '../../src/sandbox/addresses/formats.js'
import { mintAddress, mintTxHash } from '../../src/sandbox/addresses/mint.js'
import { isValidAddress } from '../../src/sandbox/addresses/validate.js'

const FORMATS: AddressFormat[] = ['evm', 'btc', 'ltc', 'doge', 'sol', 'trx', 'xrp', 'ton', 'sui']

const REAL: [AddressFormat, string][] = [
  ['evm', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
  ['evm', '0xd8da6bf26964af9d7eed9e03e53415d37aa96045'],
  ['btc', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['btc', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  ['btc', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
  ['btc', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
  ['btc', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
  ['sol', 'So11111111111111111111111111111111111111112'],
  ['trx', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
  ['ton', 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N'],
  ['sui', '0x0000000000000000000000000000000000000000000000000000000000000002'],
]

const BAD: [AddressFormat, string][] = [
  ['evm', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046'],
  ['evm', '0x1234'],
  ['btc', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx'],
  ['btc', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
  ['btc', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
  ['btc', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
  ['sol', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
  ['sol', 'So1111111111111111111111111111111111111111O'],
  ['trx', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
  ['trx', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTj'],
  ['ton', 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2M'],
  ['sui', '0x2'],
  ['doge', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7X'],
  ['ltc', 'ltc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
]

t.test('minted deposit addresses are valid for their own chain family and no other', async (t) => {
  for (const format of FORMATS) {
    for (let i = 0; i < 20; i++) {
      const address = mintAddress(format)
      if (!isValidAddress(format, address)) t.fail(`${format}: minted ${address} does not validate`)
    }
    const others = FORMATS.filter((other) => other !== format)
    const sample = mintAddress(format)
    for (const other of others) {
      if (isValidAddress(other, sample)) t.fail(`${format} address ${sample} passes as ${other}`)
    }
  }
  t.pass('all formats round-trip')
})

t.test('BTC deposit addresses are taproot (bech32m, witness v1, 32 bytes)', async (t) => {
  const address = mintAddress('btc')
  t.match(address, /^bc1p[02-9ac-hj-np-z]{58}$/)
  const { prefix, words } = bech32m.decode(address as `bc1${string}`)
  t.equal(prefix, 'bc')
  t.equal(words[0], 1)
  t.equal(bech32m.fromWords(words.slice(1)).length, 32)
})

t.test('real-world addresses validate', async (t) => {
  for (const [format, address] of REAL) t.ok(isValidAddress(format, address), `${format} ${address}`)
})

t.test('corrupted, foreign-network and malformed addresses do not', async (t) => {
  for (const [format, address] of BAD) t.notOk(isValidAddress(format, address), `${format} ${address}`)
})

t.test('transaction hashes look like their chain', async (t) => {
  t.match(mintTxHash('evm'), /^0x[0-9a-f]{64}$/)
  t.match(mintTxHash('btc'), /^[0-9a-f]{64}$/)
  t.match(mintTxHash('xrp'), /^[0-9A-F]{64}$/)
  t.match(mintTxHash('sol'), /^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
})
