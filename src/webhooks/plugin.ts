// Signed webhooks to the operator's backend (WEBHOOK_URLS): every order event, one delivery per URL,
// signed per Standard Webhooks with every WEBHOOK_SECRET, through the durable deliveries (retried on
// WEBHOOK_RETRY_SCHEDULE_MS, in order per order and URL, once per acknowledging receiver). Failed
// deliveries are listed and retried on the internal port. docs/notifications.md, "Webhooks".
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { webhookBody } from './event-body.js'
import { deliveryRoutes } from './internal-routes.js'
import { webhookMetrics } from './metrics.js'
import { webhookSender } from './sender.js'
import { webhookSigner } from './signature.js'

export interface WebhooksOptions {
  urls: string[]
  secrets: string[]
  timeoutMs: number
  scheduleMs: number[]
  userAgent: string
}

/** A URL as logs show it: its credentials, if it carries any, left out. */
const shown = (target: string) => {
  const url = new URL(target)
  url.username = ''
  url.password = ''
  return url.href
}

export const webhooksPlugin = fp(
  async (app: FastifyInstance, opts: WebhooksOptions) => {
    const sender = webhookSender({
      timeoutMs: opts.timeoutMs,
      clock: app.clock,
      signer: webhookSigner(opts.secrets),
      userAgent: opts.userAgent,
    })
    const metrics = webhookMetrics(app, () => channel)
    const channel = app.deliveries.channel({
      name: 'webhook',
      scheduleMs: opts.scheduleMs,
      send: sender.send,
      // An attempt ends within its deadline; the lease outlasts it with room for a slow settle.
      leaseMs: opts.timeoutMs + 30_000,
      onOutcome(outcome, delivery, answer) {
        metrics.counted(outcome)
        const about = { eventId: delivery.eventId, url: shown(delivery.target), answer }
        if (outcome === 'gone')
          app.log.error(about, 'the webhook URL answered 410 Gone: this delivery ended; check WEBHOOK_URLS')
        if (outcome === 'failed')
          app.log.warn(
            { ...about, attempts: delivery.attempts + 1 },
            'webhook delivery failed: its retries are spent',
          )
      },
    })
    app.orderEvents.subscribe(async (event) => {
      const payload = webhookBody(event)
      const base = { eventId: event.id, eventType: event.type, orderId: event.orderId, payload }
      await Promise.all(opts.urls.map((target) => channel.enqueue({ ...base, target })))
    })
    const reachable = () => app.redis?.up !== false
    for (const route of deliveryRoutes({ channel, urls: opts.urls, reachable })) app.internalRoutes.add(route)
    app.addHook('onClose', () => sender.close())
  },
  {
    name: 'webhooks',
    dependencies: ['metrics', 'deliveries', 'watch', 'metrics-server', 'redis'],
    decorators: { fastify: ['deliveries', 'orderEvents', 'internalRoutes', 'metrics', 'clock'] },
  },
)
