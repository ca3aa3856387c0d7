// Picks tokens from the sandbox's catalog by what a test needs, so tests do not hard-code ids.
import type { Token } from '../../src/upstream/schemas.js'

export const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'

const tradable = (t: Token) => t.active && t.blockchain.depositsActive

export function picks(tokens: Token[]) {
  const find = (what: string, pred: (t: Token) => boolean) => {
    const found = tokens.find(pred)
    if (!found) throw new Error(`the sandbox catalog has no ${what}`)
    return found
  }
  const usdtEth = find(
    'tradable USDT on ETH',
    (t) => tradable(t) && t.symbol === 'USDT' && t.blockchain.network === 'ETH',
  )
  const eth = find(
    'tradable ETH native',
    (t) => tradable(t) && t.isBaseToken && t.blockchain.network === 'ETH',
  )
  const inactive = find('inactive token', (t) => !t.active)
  const depositsOff = find(
    'token on a chain with deposits off',
    (t) => t.active && !t.blockchain.depositsActive,
  )
  return { usdtEth, eth, inactive, depositsOff, unknownId: Math.max(...tokens.map((t) => t.id)) + 1000 }
}

/** A create body the sandbox accepts. */
export function orderBody(p: ReturnType<typeof picks>, amount = 100) {
  return {
    depositTokenId: p.usdtEth.id,
    settleTokenId: p.eth.id,
    receivingAddress: ETH_ADDRESS,
    intendedAmount: amount,
    intendedIsDeposit: true,
  }
}
