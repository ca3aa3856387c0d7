// GET /v1/tokens held to the spec's Token and Blockchain tables, and the catalog controls.
import { base58 } from '@scure/base'
import t from 'tap'
import { getAddress } from 'viem'
import { z } from 'zod'
import { base58check } from '../../src/sandbox/addresses/formats.js'
import { type Token, tokenSchema } from '../../src/sandbox/resources.js'
import { startSandbox } from '../helpers/sandbox.js'
import { call } from './http.js'

const catalogSchema = z.array(
  tokenSchema.extend({ blockchain: tokenSchema.shape.blockchain.strict() }).strict(),
)

async function fetchCatalog(url: string): Promise<{ tokens: Token[]; bytes: number; status: number }> {
  const res = await call(url, '/v1/tokens')
  return { tokens: catalogSchema.parse(res.body), bytes: Buffer.byteLength(res.text), status: res.status }
}

t.test('the catalog is served without credentials, every token exactly per the Token table', async (t) => {
  const { url } = await startSandbox(t)
  const res = await call(url, '/v1/tokens')
  t.equal(res.status, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const tokens = catalogSchema.parse(res.body)
  t.ok(tokens.length > 2000, `over 2,000 tokens (${tokens.length})`)
  const kb = Buffer.byteLength(res.text) / 1024
  t.ok(kb > 580 && kb < 700, `realistic size, about 600-700 KB (${kb.toFixed(0)} KB)`)
  t.ok(
    tokens.every((token) => token.blockchainId === token.blockchain.id),
    'blockchainId equals blockchain.id',
  )
  t.equal(new Set(tokens.map((token) => token.id)).size, tokens.length, 'ids are unique')
})

t.test('18 chains, one of them with deposits switched off', async (t) => {
  const { url } = await startSandbox(t)
  const { tokens } = await fetchCatalog(url)
  const chains = new Map(tokens.map((token) => [token.blockchain.id, token.blockchain]))
  t.equal(chains.size, 18)
  const disabled = [...chains.values()].filter((chain) => !chain.depositsActive)
  t.equal(disabled.length, 1)
  t.same(
    [...new Set([...chains.values()].map((chain) => chain.network))].sort(),
    [...chains.values()].map((chain) => chain.network).sort(),
    'one network code per chain',
  )
  for (const network of ['BTC', 'ETH', 'SOL', 'TRX']) {
    t.ok(
      [...chains.values()].some((chain) => chain.network === network),
      `has ${network}`,
    )
  }
})

t.test(
  'each chain has one native coin with address "native"; stablecoins and inactive tokens exist',
  async (t) => {
    const { url } = await startSandbox(t)
    const { tokens } = await fetchCatalog(url)
    const natives = tokens.filter((token) => token.isBaseToken)
    t.equal(natives.length, 18)
    t.ok(natives.every((token) => token.address === 'native'))
    t.ok(tokens.filter((token) => !token.isBaseToken).every((token) => token.address !== 'native'))
    t.ok(tokens.some((token) => token.isStablecoin && token.symbol === 'USDT'))
    const inactive = tokens.filter((token) => !token.active)
    t.ok(inactive.length > 20, `some tokens are inactive (${inactive.length})`)
  },
)

t.test('the same asset has a distinct id on each chain', async (t) => {
  const { url } = await startSandbox(t)
  const { tokens } = await fetchCatalog(url)
  const usdt = tokens.filter((token) => token.symbol === 'USDT')
  t.ok(usdt.length >= 10)
  t.equal(new Set(usdt.map((token) => token.id)).size, usdt.length)
  t.equal(new Set(usdt.map((token) => token.blockchainId)).size, usdt.length)
})

t.test('contract addresses are well-formed for their chain', async (t) => {
  const { url } = await startSandbox(t)
  const { tokens } = await fetchCatalog(url)
  const contracts = (network: string) =>
    tokens.filter((token) => token.blockchain.network === network && token.address !== 'native')
  for (const token of contracts('ETH')) {
    if (getAddress(token.address) !== token.address) t.fail(`${token.id} is not checksummed`)
  }
  for (const token of contracts('SOL')) {
    if (base58.decode(token.address).length !== 32) t.fail(`${token.id} is not a Solana key`)
  }
  for (const token of contracts('TRX')) {
    const bytes = base58check.decode(token.address)
    if (bytes[0] !== 0x41 || !token.address.startsWith('T')) t.fail(`${token.id} is not a Tron address`)
  }
  t.pass('checked ETH, SOL and TRX contracts')
})

t.test('the catalog is identical across sandbox instances (stable ids)', async (t) => {
  const a = await startSandbox(t)
  const b = await startSandbox(t)
  const first = await call(a.url, '/v1/tokens')
  const second = await call(b.url, '/v1/tokens')
  t.equal(first.text, second.text)
})

t.test(
  'control: tokens(), addToken, setTokenActive and setDepositsActive show in GET /v1/tokens',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const before = control.tokens().length
    const added = control.addToken({ name: 'Brand New', symbol: 'BNEW', blockchainId: 2, decimals: 18 })
    t.equal(added.id, Math.max(...control.tokens().map((token) => token.id)))
    t.equal(control.tokens().length, before + 1)
    t.equal(added.blockchain.network, 'ETH')
    t.equal(getAddress(added.address), added.address)

    control.setTokenActive(2, false)
    control.setDepositsActive(3, false)
    const { tokens } = await fetchCatalog(url)
    t.same(tokens.at(-1), added)
    t.equal(tokens.find((token) => token.id === 2)?.active, false)
    t.ok(
      tokens.filter((token) => token.blockchainId === 3).every((token) => !token.blockchain.depositsActive),
    )
    t.throws(() => control.setTokenActive(999_999, true), /Unknown token 999999/)
    t.throws(() => control.setDepositsActive(99, true), /Unknown chain 99/)
  },
)
