// A catalog entry: the public Token plus what the sandbox needs to price and route it, kept
// beside the token so the served objects carry exactly the documented fields.
import type { Token } from '../resources.js'

/** Liquidity class; decides the pair's maximal amount. */
export type Tier = 'major' | 'stable' | 'alt' | 'tail'

export interface Listing {
  token: Token
  /** Fixed USD price of one whole token. */
  usd: number
  /** Order-book symbol the token trades as (WETH trades as ETH). */
  book: string
  tier: Tier
}
