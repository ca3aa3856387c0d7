// A pair's bounds read from the swap-limits body, whose fields the swap service does not document:
// implementations name them differently (the sandbox `minimalAmount`/`maximalAmount`, another
// `minAmount`/`maxAmount`), so only names known here are read, and a body with none shows nothing
// rather than a guess. Amounts are in the deposit token.
import type { SwapLimits } from 'swap-gateway-client'

export interface Bounds {
  min: number
  max: number | undefined
}

/** Known names of the lower and upper bound, in the order they are tried. */
const KNOWN_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['minimalAmount', 'maximalAmount'],
  ['minAmount', 'maxAmount'],
]

/** A number given as a number or as its text; anything else is no bound. */
function numberOf(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN
  return Number.isFinite(n) ? n : undefined
}

/** The pair's bounds, when the body names them in a way known here. */
export function boundsOf(limits: SwapLimits): Bounds | undefined {
  const body = limits as Record<string, unknown>
  for (const [low, high] of KNOWN_NAMES) {
    const min = numberOf(body[low])
    if (min !== undefined) return { min, max: numberOf(body[high]) }
  }
  return undefined
}

/**
 * Whether `amount` (as typed) is outside the bounds: `below`, `above`, or undefined (inside; or not a
 * positive number, which the quote's INVALID_AMOUNT already says).
 */
export function outside(bounds: Bounds, amount: string): 'below' | 'above' | undefined {
  const n = Number(amount)
  if (!amount.trim() || !Number.isFinite(n) || n <= 0) return undefined
  if (n < bounds.min) return 'below'
  if (bounds.max !== undefined && n > bounds.max) return 'above'
  return undefined
}
