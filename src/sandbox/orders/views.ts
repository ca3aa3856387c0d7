// The three shapes of an order the spec names: create (with walletAddress), get-by-uuid (with
// walletAddress and the expanded tokens) and history items (expanded tokens, no walletAddress).
// Tokens are expanded at read time, so a token switched off later shows as inactive.
import type { Catalog } from '../catalog/catalog.js'
import type { CreatedOrder, HistoryItem, OrderDetails, Token } from '../resources.js'

function token(catalog: Catalog, id: number): Token {
  const listing = catalog.listing(id)
  if (!listing) throw new Error(`Token ${id} is no longer in the catalog`)
  return listing.token
}

export function createdView(order: CreatedOrder): CreatedOrder {
  return structuredClone(order)
}

export function detailsView(order: CreatedOrder, catalog: Catalog): OrderDetails {
  return structuredClone({
    ...order,
    depositToken: token(catalog, order.depositTokenId),
    settleToken: token(catalog, order.settleTokenId),
  })
}

export function historyView(order: CreatedOrder, catalog: Catalog): HistoryItem {
  const { walletAddress: _omitted, ...fields } = order
  return structuredClone({
    ...fields,
    depositToken: token(catalog, order.depositTokenId),
    settleToken: token(catalog, order.settleTokenId),
  })
}
