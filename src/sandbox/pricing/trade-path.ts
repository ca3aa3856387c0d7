// The order-book legs behind a price: everything routes through USDT books. The second leg of a
// cross pair is spelled in lowercase, as the spec warns that leg casing varies.
import type { Listing } from '../catalog/listing.js'
import type { TradePathLeg } from '../resources.js'

const QUOTE_ASSET = 'USDT'

export function tradePath(deposit: Listing, settle: Listing): TradePathLeg[] {
  const from = deposit.book
  const to = settle.book
  if (from === to) return []
  const sell: TradePathLeg = {
    symbol: `${from}${QUOTE_ASSET}`,
    side: 'SELL',
    inputToken: from,
    outputToken: QUOTE_ASSET,
  }
  const buy: TradePathLeg = {
    symbol: `${to}${QUOTE_ASSET}`,
    side: 'BUY',
    inputToken: QUOTE_ASSET,
    outputToken: to,
  }
  if (from === QUOTE_ASSET) return [buy]
  if (to === QUOTE_ASSET) return [sell]
  return [sell, { ...buy, symbol: buy.symbol.toLowerCase() }]
}
