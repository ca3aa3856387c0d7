// Swap limits of a pair, in deposit-token units. The minimum is a fixed USD floor; the maximum is
// what the shallower of the two books can absorb. Quotes ignore these; orders carry them.
import type { Listing, Tier } from '../catalog/listing.js'
import { toSignificant } from './rounding.js'

const MINIMAL_USD = 15

const MAXIMAL_USD: Record<Tier, number> = {
  major: 500_000,
  stable: 250_000,
  alt: 100_000,
  tail: 20_000,
}

export interface SwapLimits {
  depositTokenId: number
  settleTokenId: number
  minimalAmount: number
  maximalAmount: number
  minimalAmountUsd: number
  maximalAmountUsd: number
}

export function swapLimits(deposit: Listing, settle: Listing): SwapLimits {
  const maximalUsd = Math.min(MAXIMAL_USD[deposit.tier], MAXIMAL_USD[settle.tier])
  return {
    depositTokenId: deposit.token.id,
    settleTokenId: settle.token.id,
    minimalAmount: toSignificant(MINIMAL_USD / deposit.usd),
    maximalAmount: toSignificant(maximalUsd / deposit.usd),
    minimalAmountUsd: MINIMAL_USD,
    maximalAmountUsd: maximalUsd,
  }
}
