// An order event: one change of one order, found by the watch (watch/plugin.ts) and reported once for
// the whole fleet. Webhooks and Web Push (and the wallet's stream) each subscribe to the watch's
// `orderEvents` and hand every event on durably; a listener may see an event again after a crash
// between the report and its hand-off, so it must be idempotent by the event's id.
import { z } from 'zod'
import { orderSchema, orderStatus } from '../upstream/schemas.js'

export const ORDER_EVENT_TYPES = ['order.created', 'order.status_changed'] as const

export const orderEventSchema = z.object({
  /** `<uuid>.created` or `<uuid>.<STATUS>`: the same from every instance and on every attempt. */
  id: z.string(),
  type: z.enum(ORDER_EVENT_TYPES),
  /** ISO 8601 UTC of the change. */
  timestamp: z.string(),
  orderId: z.string(),
  status: orderStatus,
  /** Null for `order.created`. */
  previousStatus: orderStatus.nullable(),
  /** The upstream's user id; null for anonymous orders. */
  userId: z.string().nullable(),
  /** The order as `GET /api/v1/orders/:uuid` answers it. */
  order: orderSchema,
})
export type OrderEvent = z.infer<typeof orderEventSchema>

export type OrderEventListener = (event: OrderEvent) => Promise<void>

/** Where the watch publishes each order event; `publish` settles once every listener has handed it on. */
export class OrderEvents {
  private readonly listeners: OrderEventListener[] = []

  subscribe(listener: OrderEventListener): void {
    this.listeners.push(listener)
  }

  async publish(event: OrderEvent): Promise<void> {
    await Promise.all(this.listeners.map((listener) => listener(event)))
  }
}
