// The operator's view of webhook deliveries, on the internal port only (never the public one): the
// pending and failed ones, and a hand-made retry of a failed one.
import { z } from 'zod'
import type { DeliveryChannel, DeliveryView } from '../deliveries/types.js'
import type { InternalRoute } from '../observability/internal-routes.js'
import { problems } from '../problems.js'

const stateQuery = z.enum(['failed', 'pending'])
const retryBody = z.object({ url: z.string().optional() }).optional()

const listed = (d: DeliveryView) => ({
  eventId: d.eventId,
  type: d.eventType,
  orderId: d.orderId,
  url: d.target,
  attempts: d.attempts,
  lastAnswer: d.lastAnswer,
  nextAttemptAt: d.nextAttemptAt === null ? null : new Date(d.nextAttemptAt).toISOString(),
  enqueuedAt: new Date(d.enqueuedAt).toISOString(),
})

export interface DeliveryRoutesOptions {
  channel: DeliveryChannel
  urls: readonly string[]
  /** False while Redis is known to be down: the routes answer at once instead of waiting on it. */
  reachable(): boolean
}

/** Runs a read or write of the deliveries, or answers 503 when their Redis is unreachable. */
async function kept<T>(opts: DeliveryRoutesOptions, work: () => Promise<T>): Promise<T> {
  if (!opts.reachable()) throw problems.deliveriesUnreachable()
  try {
    return await work()
  } catch {
    throw problems.deliveriesUnreachable()
  }
}

export function deliveryRoutes(opts: DeliveryRoutesOptions): InternalRoute[] {
  return [
    {
      method: 'GET',
      path: '/webhooks/deliveries',
      async handle({ query }) {
        const state = stateQuery.safeParse(query.get('state') ?? undefined)
        if (!state.success)
          throw problems.invalidField('VALIDATION_FAILED', 'query', 'state', [
            { path: 'query.state', message: 'must be failed or pending' },
          ])
        const deliveries = await kept(opts, () => opts.channel.list(state.data))
        return { status: 200, body: { state: state.data, deliveries: deliveries.map(listed) } }
      },
    },
    {
      method: 'POST',
      path: '/webhooks/deliveries/:eventId/retry',
      async handle({ params, body }) {
        const parsed = retryBody.safeParse(body)
        if (!parsed.success)
          throw problems.invalidInput('body', [{ path: 'body.url', message: 'must be a string' }])
        const url = parsed.data?.url ?? (opts.urls.length === 1 ? opts.urls[0] : undefined)
        if (url === undefined || !opts.urls.includes(url)) throw problems.webhookUrlNeeded(opts.urls)
        const eventId = params.eventId!
        if (!(await kept(opts, () => opts.channel.retry(eventId, url))))
          throw problems.noFailedDelivery(eventId)
        return { status: 202, body: { eventId, url, state: 'pending' } }
      },
    },
  ]
}
