// The OpenAPI document's top-level `webhooks` (OpenAPI 3.1): the requests the gateway sends to the
// operator's WEBHOOK_URLS, one per order event type, with the `OrderEvent` body as a named component,
// so a receiver can generate its types from the same document as the API's clients.
import { ORDER_EVENT_TYPES } from '../watch/order-event.js'
import { webhookEventSchema } from '../webhooks/event-body.js'
import { bodySchema, type Json } from './json-schema.js'

const header = (name: string, description: string, example: string): Json => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', maxLength: 1024 },
  example,
})

const HEADERS = [
  header(
    'webhook-id',
    "The event's id, the same on every attempt and from every instance: dedupe on it.",
    '0b6f1c1e-2d3a-4f5b-8c9d-0e1f2a3b4c5d.COMPLETED',
  ),
  header('webhook-timestamp', 'Unix seconds when this attempt was signed.', '1764358000'),
  header(
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>`, one per configured secret (Standard Webhooks).',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
]

const TEXTS: Record<(typeof ORDER_EVENT_TYPES)[number], { operationId: string; summary: string }> = {
  'order.created': { operationId: 'orderCreated', summary: 'An order was created through the gateway' },
  'order.status_changed': { operationId: 'orderStatusChanged', summary: "An order's status changed" },
}

export function webhookEvents(): Record<string, Json> {
  const body = bodySchema(webhookEventSchema)
  return Object.fromEntries(
    ORDER_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          ...TEXTS[type],
          tags: ['webhooks'],
          description: `Sent to every WEBHOOK_URLS URL with \`type: "${type}"\`. Answer 2xx within WEBHOOK_TIMEOUT_MS to acknowledge; anything else is retried on WEBHOOK_RETRY_SCHEDULE_MS (Retry-After honoured when longer), and 410 ends the delivery. One order's events reach a URL in the order they happened.`,
          security: [],
          parameters: HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: body } } },
          responses: {
            '200': { description: 'Acknowledged: any 2xx answer does.' },
            '410': { description: 'This URL is gone: the delivery ends at once.' },
          },
        },
      },
    ]),
  )
}
