// A gateway with Web Push on (a fixed VAPID pair, local endpoints admitted unless a test says
// otherwise), deliveries looked for every few ms on a clock the test moves, and a sandbox order.
import type { Test } from 'tap'
import type { AppDeps } from '../../src/app.js'
import { generateVapidKeys } from '../../src/push/vapid-keys.js'
import type { OrderStatus } from '../../src/upstream/schemas.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { fakeClock } from '../helpers/clock.js'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'

export const SUBJECT = 'mailto:ops@example.com'

export async function pushGateway(t: Test, env: Record<string, string> = {}, deps: AppDeps = {}) {
  const keys = generateVapidKeys()
  const clock = fakeClock({ running: true })
  const gw = await startGateway(t, {
    env: {
      WEB_PUSH_PUBLIC_KEY: keys.publicKey,
      WEB_PUSH_PRIVATE_KEY: keys.privateKey,
      WEB_PUSH_SUBJECT: SUBJECT,
      WEB_PUSH_ALLOW_LOCAL_ENDPOINTS: 'true',
      ...env,
    },
    deps: { clock, random: () => 0.5, deliveryTuning: { pollMs: 10 }, ...deps },
  })
  const p = picks(gw.sandbox.control.tokens())
  return {
    ...gw,
    keys,
    clock,
    async newOrder(): Promise<string> {
      const res = await gw.app.inject({ method: 'POST', url: '/api/v1/orders/create', payload: orderBody(p) })
      if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`)
      return (res.json() as { uuid: string }).uuid
    },
    subscribe: (uuid: string, body: unknown) =>
      gw.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${uuid}/push-subscriptions`,
        payload: body as object,
      }),
    unsubscribe: (uuid: string, endpoint: string) =>
      gw.app.inject({
        method: 'DELETE',
        url: `/api/v1/orders/${uuid}/push-subscriptions?endpoint=${encodeURIComponent(endpoint)}`,
      }),
    /** The order event the watch would publish for this transition, published. */
    async publish(uuid: string, status: OrderStatus, previousStatus: OrderStatus | null) {
      const res = await gw.app.inject({ method: 'GET', url: `/api/v1/orders/${uuid}` })
      const event: OrderEvent = {
        id: `${uuid}.${status}`,
        type: 'order.status_changed',
        timestamp: new Date(clock.now()).toISOString(),
        orderId: uuid,
        status,
        previousStatus,
        userId: null,
        order: { ...(res.json() as OrderEvent['order']), status },
      }
      await gw.app.orderEvents.publish(event)
      return event
    },
  }
}
