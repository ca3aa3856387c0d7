// One gateway of the notifications benchmark, in its own process: every feature on, logging to
// /dev/null, further settings (REDIS_URL, WATCH_LEASE_MS, webhooks, Web Push) as JSON in the second
// argument. It follows orders, publishes order events and subscribes browsers when the orchestrator
// asks, and reports its memory and CPU.
import { randomUUID } from 'node:crypto'
import { buildApp } from '../../src/app.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { benchConfig } from './setup.js'
import { serve, settledMemory } from './stream-ipc.js'

const upstream = process.argv[2]
if (!upstream) throw new Error('usage: notify-gateway.ts <upstream url> [settings as JSON]')
const more = JSON.parse(process.argv[3] ?? '{}') as Record<string, string>
const app = await buildApp(benchConfig(upstream, more), { logTo: '/dev/null' })
const url = await app.listen({ port: 0, host: '127.0.0.1' })

/** Runs `task` over `items`, `concurrency` at a time; resolves with how many failed. */
async function pool<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>) {
  let next = 0
  let failed = 0
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!
      await task(item).catch(() => failed++)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane))
  return failed
}

/** The order as the gateway answers it, the template of the events published here. */
async function orderOf(uuid: string): Promise<OrderEvent['order']> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/orders/${uuid}` })
  if (res.statusCode !== 200) throw new Error(`order read: ${res.statusCode} ${res.body}`)
  return res.json()
}

const statusEvent = (order: OrderEvent['order'], orderId: string): OrderEvent => ({
  id: `${orderId}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`,
  type: 'order.status_changed',
  timestamp: new Date().toISOString(),
  orderId,
  status: 'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
  previousStatus: 'AWAITING_USER_DEPOSIT',
  userId: null,
  order: { ...order, uuid: orderId, status: 'AWAITING_USER_DEPOSIT_CONFIRMATIONS' },
})

serve(
  async (message) => {
    if (message.type === 'measure')
      return { type: 'memory', ...settledMemory(), stats: app.statusHub.stats() }
    if (message.type === 'cpu') return { type: 'cpu', ...process.cpuUsage() }
    if (message.type === 'follow') {
      const uuids = message.uuids as string[]
      const failed = await pool(uuids, 32, (uuid) => app.orderWatch.follow(uuid))
      return { type: 'followed', failed }
    }
    // Webhooks: one event for each of `count` distinct orders (a channel delivers one order's events
    // in turn), shaped after a real order.
    if (message.type === 'publish-distinct') {
      const order = await orderOf(message.uuid as string)
      const events = Array.from({ length: message.count as number }, () => statusEvent(order, randomUUID()))
      await pool(events, 64, (event) => app.orderEvents.publish(event))
      return { type: 'published' }
    }
    // Web Push: one event for each named order, whose subscriptions are pushed to.
    if (message.type === 'publish-orders') {
      const uuids = message.uuids as string[]
      const events = await Promise.all(uuids.map(async (uuid) => statusEvent(await orderOf(uuid), uuid)))
      await pool(events, 64, (event) => app.orderEvents.publish(event))
      return { type: 'published' }
    }
    if (message.type === 'subscribe') {
      const subscriptions = message.subscriptions as { uuid: string; body: object }[]
      let refused = ''
      const failed = await pool(subscriptions, 16, async ({ uuid, body }) => {
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/orders/${uuid}/push-subscriptions`,
          payload: body,
        })
        if (res.statusCode !== 201) throw new Error((refused = `${res.statusCode} ${res.body}`))
      })
      return { type: 'subscribed', failed, refused }
    }
    return undefined
  },
  { type: 'ready', url },
)
