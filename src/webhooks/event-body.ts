// The body of every webhook (Standard Webhooks' `{type, timestamp, data}`), built from the order
// event. Named `OrderEvent` in the OpenAPI document's `webhooks`, so a receiver can generate its types.
import { z } from 'zod'
import { documented } from '../edge/wire-types.js'
import { type OrderEvent, orderEventSchema } from '../watch/order-event.js'

export const webhookEventSchema = z
  .object({
    type: orderEventSchema.shape.type,
    timestamp: documented(z.string(), { format: 'date-time', maxLength: 32 }).describe(
      'When the change happened, ISO 8601 UTC.',
    ),
    data: z
      .object({
        ...orderEventSchema.pick({ order: true, status: true, previousStatus: true }).shape,
        userId: documented(z.string(), { maxLength: 64 })
          .nullable()
          .describe("The upstream's user id; null for an anonymous order."),
      })
      .describe('The order as a read by uuid answers it, its new and previous status, and its user.'),
  })
  .meta({
    id: 'OrderEvent',
    description:
      'One change of one order. The `webhook-id` header (`<uuid>.created` or `<uuid>.<STATUS>`) is the same on every attempt: dedupe on it.',
  })
export type WebhookEvent = z.infer<typeof webhookEventSchema>

export const webhookBody = (event: OrderEvent): string =>
  JSON.stringify({
    type: event.type,
    timestamp: event.timestamp,
    data: {
      order: event.order,
      status: event.status,
      previousStatus: event.previousStatus,
      userId: event.userId,
    },
  } satisfies WebhookEvent)
