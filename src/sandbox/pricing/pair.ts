// Resolves the two token ids of a quote, swap-limits or create call, with the upstream's
// messages: unknown ids first (deposit side, then settle side), then whether a trade path exists.
import type { Catalog } from '../catalog/catalog.js'
import type { Listing } from '../catalog/listing.js'
import { businessError } from '../envelopes.js'

export function findToken(catalog: Catalog, side: 'deposit' | 'settle', id: number): Listing {
  const listing = catalog.listing(id)
  if (!listing) throw businessError(`Invalid ${side} token id provided: ${id}`)
  return listing
}

/** No path when either token is inactive or deposits are switched off on the deposit chain. */
export function requireTradePath(deposit: Listing, settle: Listing): void {
  const tradable = deposit.token.active && settle.token.active && deposit.token.blockchain.depositsActive
  if (!tradable) throw businessError(`Couldn't find trade path for ${deposit.token.id} -> ${settle.token.id}`)
}

export function resolvePair(catalog: Catalog, depositTokenId: number, settleTokenId: number) {
  const deposit = findToken(catalog, 'deposit', depositTokenId)
  const settle = findToken(catalog, 'settle', settleTokenId)
  requireTradePath(deposit, settle)
  return { deposit, settle }
}
