// What the watch tests share: a recorder of the order events apps publish (as a listener sees them),
// orders created through a gateway, and the watch's metrics.
import type { FastifyInstance } from 'fastify'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { eventually } from '../helpers/eventually.js'
import { orderBody, picks } from '../helpers/picks.js'
import type { SandboxControl } from '../../src/sandbox/app.js'

export interface Recorder {
  events: OrderEvent[]
  /** Event ids of one order, in the order they were published (from any of the recorded apps). */
  idsOf(orderId: string): string[]
  until(what: string, pred: () => boolean, ms?: number): Promise<void>
}

/** Listens on each app's `orderEvents`, as webhooks and Web Push do. */
export function record(...apps: FastifyInstance[]): Recorder {
  const events: OrderEvent[] = []
  for (const app of apps) {
    app.orderEvents.subscribe((event) => {
      events.push(event)
      return Promise.resolve()
    })
  }
  return {
    events,
    idsOf: (orderId) => events.filter((e) => e.orderId === orderId).map((e) => e.id),
    until: (what, pred, ms = 10_000) => eventually(what, pred, ms),
  }
}

/** Creates an order through the gateway (a fresh 201, or a replay with the same Idempotency-Key). */
export async function createThrough(
  app: FastifyInstance,
  control: SandboxControl,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/orders/create',
    payload: orderBody(picks(control.tokens())),
    headers,
  })
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`)
  return { uuid: res.json<{ uuid: string }>().uuid, replayed: res.headers['idempotent-replayed'] === 'true' }
}

/** A metric's value on an app, 0 when it has no sample yet; `labels` picks one series. */
export async function metric(app: FastifyInstance, name: string, labels = ''): Promise<number> {
  const text = await app.metrics.registry.metrics()
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `))
  return line ? Number(line.split(' ')[1]) : 0
}

/** Short rounds: a test never waits seconds for the watch to look again. */
export const FAST = { scanMs: 50, renewMs: 200 }
