// The webhooks' figures: each attempt's outcome, and the pending deliveries of the whole fleet (with
// Redis) as this instance last read them.
import type { FastifyInstance } from 'fastify'
import type { DeliveryChannel, DeliveryOutcome } from '../deliveries/types.js'

export function webhookMetrics(app: FastifyInstance, channel: () => DeliveryChannel) {
  const deliveries = app.metrics.counter<'outcome'>({
    name: 'gateway_webhook_deliveries_total',
    help: 'Webhook attempts by what became of the delivery: delivered, retried, failed (schedule spent) or gone (410)',
    labelNames: ['outcome'],
  })
  app.metrics.read(() => channel().stats(), {
    gateway_webhook_pending: {
      kind: 'gauge',
      help: 'Webhook deliveries not yet delivered, failed or gone',
      pick: (s) => s.pending,
    },
    gateway_webhook_oldest_pending_seconds: {
      kind: 'gauge',
      help: 'Age of the oldest pending webhook delivery (0 when none is pending)',
      pick: (s) => (s.oldestPendingAt === undefined ? 0 : (app.clock.now() - s.oldestPendingAt) / 1000),
    },
  })
  return { counted: (outcome: DeliveryOutcome) => deliveries.inc({ outcome }) }
}
