// The wallet stream's events (docs/stream.md), as data: `snapshot` carries the user's recent orders as
// history's first page lists them, `order-created` an order the user created, and
// `orders:status-update` a change of one of the user's orders, shaped as the status stream's update.
import { z } from 'zod'
import { builtOn, documented } from '../edge/wire-types.js'
import { eventTag } from '../sse/event-tag.js'
import { STATUS_EVENT, statusUpdateEvent } from '../status-stream/events.js'
import { historyItemSchema, MAX_PAGE_SIZE, orderSchema } from '../upstream/schemas.js'
import type { OrderEvent } from '../watch/order-event.js'

export const WALLET_SNAPSHOT_EVENT = 'snapshot'
export const ORDER_CREATED_EVENT = 'order-created'
export { STATUS_EVENT, statusUpdateEvent }

export const walletSnapshotEvent = z
  .object({
    orders: documented(z.array(historyItemSchema), { maxItems: MAX_PAGE_SIZE }).describe(
      "The user's most recent orders, newest first, as the first page of their history lists them.",
    ),
    ...eventTag(WALLET_SNAPSHOT_EVENT),
  })
  .meta({
    id: 'WalletSnapshot',
    description:
      "The wallet stream's `snapshot` event: the user's recent orders. It replaces whatever the client held.",
  })

export const orderCreatedEvent = builtOn(orderSchema, eventTag(ORDER_CREATED_EVENT), {
  id: 'WalletOrderCreated',
  description: 'The `order-created` event: an order the signed-in user just created, through any instance.',
})

/** What the per-user log keeps of an order event: the SSE event's name and its data's text. */
export interface WalletEntry {
  event: string
  data: string
}

/** An order event as the wallet stream sends it. */
export function walletEntryOf(event: OrderEvent): WalletEntry {
  if (event.type === 'order.created') return { event: ORDER_CREATED_EVENT, data: JSON.stringify(event.order) }
  const update = {
    orderId: event.orderId,
    status: event.status,
    message: `${event.previousStatus ?? 'NEW'} -> ${event.status}`,
    updatedAt: event.timestamp,
    order: event.order,
  }
  return { event: STATUS_EVENT, data: JSON.stringify(update) }
}
