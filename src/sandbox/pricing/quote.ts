// Prices a pair from the fixed USD table. The solver margin sits inside the rate; amounts beyond
// the pair's maximal amount get slippage folded into the rate rather than a refusal (quote rule 2).
import { z } from 'zod'
import type { Listing } from '../catalog/listing.js'
import { tradePathLegSchema } from '../resources.js'
import { swapLimits } from './limits.js'
import { toCents, toDecimals, toSignificant } from './rounding.js'
import { tradePath } from './trade-path.js'

/** The four documented fields; the no-quote body is exactly these. */
export const quoteSchema = z.object({
  depositAmount: z.number().nullable(),
  settleAmount: z.number(),
  exchangeRate: z.number(),
  depositTokenUsdValue: z.number().nullable(),
})
export type NoQuote = z.infer<typeof quoteSchema>

/** A priced quote, with the undocumented members a gateway must pass through. */
export const pricedQuoteSchema = quoteSchema.extend({
  depositAmount: z.number(),
  settleTokenUsdValue: z.number(),
  exchange: z.string(),
  tradePath: z.array(tradePathLegSchema),
})
export type PricedQuote = z.infer<typeof pricedQuoteSchema>

export const NO_QUOTE: NoQuote = {
  depositAmount: null,
  settleAmount: 0,
  exchangeRate: 0,
  depositTokenUsdValue: null,
}

/** Margin per order-book leg; a same-asset transfer between chains still pays a bridge margin. */
const MARGIN_PER_LEG = 0.002
const BRIDGE_MARGIN = 0.001

/** 1% of rate per multiple of the maximal amount, capped at half the rate. */
export function slippage(depositAmount: number, maximalAmount: number): number {
  const multiple = depositAmount / maximalAmount
  return multiple > 1 ? Math.min(0.5, 0.01 * multiple) : 0
}

function baseRate(deposit: Listing, settle: Listing): number {
  const legs = tradePath(deposit, settle).length
  const margin = legs === 0 ? BRIDGE_MARGIN : MARGIN_PER_LEG * legs
  return (deposit.usd / settle.usd) * (1 - margin)
}

export function priceQuote(
  deposit: Listing,
  settle: Listing,
  amount: number,
  amountIsDeposit: boolean,
): PricedQuote {
  const { maximalAmount } = swapLimits(deposit, settle)
  const base = baseRate(deposit, settle)
  const grossDeposit = amountIsDeposit ? amount : amount / base
  const rate = toSignificant(base * (1 - slippage(grossDeposit, maximalAmount)), 10)
  const depositAmount = toDecimals(amountIsDeposit ? amount : amount / rate, deposit.token.decimals)
  const settleAmount = toDecimals(amountIsDeposit ? amount * rate : amount, settle.token.decimals)
  return {
    depositAmount,
    settleAmount,
    exchangeRate: rate,
    depositTokenUsdValue: toCents(depositAmount * deposit.usd),
    settleTokenUsdValue: toCents(settleAmount * settle.usd),
    exchange: 'CEX',
    tradePath: tradePath(deposit, settle),
  }
}
