// The event a watched order owes, if any: `order.created` before anything was reported for an order
// the gateway created, then `order.status_changed` for each status further along than the last one
// reported. Ids are deterministic (`<uuid>.created`, `<uuid>.<STATUS>`), the same from every instance.
import { rankOf } from '../status-stream/feed.js'
import type { OrderRead } from '../status-stream/feed.js'
import type { OrderStatus } from '../upstream/schemas.js'
import type { OrderEvent } from './order-event.js'
import type { Origin } from './store.js'

export interface OrderState {
  orderId: string
  origin: Origin
  last: OrderStatus | null
  /** The latest read of the order. */
  seen: OrderRead
  /** The order as its create answered it, when this instance created it. */
  createdRead: OrderRead | undefined
}

export function nextEvent(state: OrderState): OrderEvent | undefined {
  const { orderId, last } = state
  if (last === null) {
    const read = state.createdRead ?? state.seen
    const order = read.body
    return {
      id: `${orderId}.created`,
      type: 'order.created',
      timestamp: order.createdAt,
      orderId,
      status: order.status,
      previousStatus: null,
      userId: order.userId,
      order,
    }
  }
  const order = state.seen.body
  if (rankOf(order.status) <= rankOf(last)) return undefined
  return {
    id: `${orderId}.${order.status}`,
    type: 'order.status_changed',
    timestamp: new Date(state.seen.readAt).toISOString(),
    orderId,
    status: order.status,
    previousStatus: last,
    userId: order.userId,
    order,
  }
}
