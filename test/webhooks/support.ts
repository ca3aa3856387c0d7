// What the webhook tests share: a receiver on port 0 that checks every delivery with the reference
// verifier (npm standardwebhooks), a gateway sending to it, and order events built from a real
// sandbox order.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { Test } from 'tap'
import type { AppDeps } from '../../src/app.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { type FakeClock, fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  /** Whether the reference verifier accepted it, per secret the receiver knows. */
  verified: boolean[]
}

/** What the receiver does with a delivery: answer, hang without answering, or cut the connection. */
export type Act = { status: number; headers?: Record<string, string> } | 'hang' | 'reset'

export async function startReceiver(t: Test, secrets: string[]) {
  const received: Received[] = []
  let act: (r: Received) => Act = () => ({ status: 204 })
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = req.headers
      const verified = secrets.map((secret) => {
        try {
          new Webhook(secret).verify(body, headers as Record<string, string>)
          return true
        } catch {
          return false
        }
      })
      const r = { headers, body, verified }
      received.push(r)
      const what = act(r)
      if (what === 'hang') return
      if (what === 'reset') return req.socket.destroy()
      res.writeHead(what.status, what.headers).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** The event ids received, in order. */
    ids: () => received.map((r) => String(r.headers['webhook-id'])),
    answer(fn: (r: Received) => Act) {
      act = fn
    },
  }
}

export interface WebhookGatewayOptions {
  env: Record<string, string>
  clock?: FakeClock
  random?: () => number
  deps?: AppDeps
}

/** How often the deliveries poll in these tests, on the gateway's clock (which stands still unless moved). */
const POLL_MS = 10

/** A gateway sending webhooks, its schedule short, its clock fake and its jitter none unless told. */
export async function webhookGateway(t: Test, opts: WebhookGatewayOptions) {
  const clock = opts.clock ?? fakeClock()
  const gw = await startGateway(t, {
    env: { WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000', WEBHOOK_TIMEOUT_MS: '2000', ...opts.env },
    deps: {
      clock,
      random: opts.random ?? (() => 0.5),
      deliveryTuning: { pollMs: POLL_MS },
      metricsPort: 0,
      ...opts.deps,
    },
    listen: true,
  })
  return { ...gw, clock }
}

type Gateway = Awaited<ReturnType<typeof startGateway>>

/** A real sandbox order, and its events: created, then each status given, in turn. */
export async function sandboxOrderEvents(gw: Gateway, statuses: OrderEvent['status'][] = []) {
  const p = picks(gw.sandbox.control.tokens())
  const created = await gw.app.inject({ method: 'POST', url: '/api/v1/orders/create', payload: orderBody(p) })
  const uuid = created.json<{ uuid: string }>().uuid
  const order = (await gw.app.inject(`/api/v1/orders/${uuid}`)).json<OrderEvent['order']>()
  const events: OrderEvent[] = [
    {
      id: `${uuid}.created`,
      type: 'order.created',
      timestamp: order.createdAt,
      orderId: uuid,
      status: order.status,
      previousStatus: null,
      userId: order.userId ?? null,
      order,
    },
  ]
  for (const status of statuses) {
    const previous = events.at(-1)!
    events.push({
      ...previous,
      id: `${uuid}.${status}`,
      type: 'order.status_changed',
      timestamp: new Date().toISOString(),
      status,
      previousStatus: previous.status,
      order: { ...order, status },
    })
  }
  return events
}

/** The deliveries' next poll: what was handed on since is looked for (the clock moves by one poll). */
export const poll = (gw: { clock: FakeClock }) => gw.clock.advance(POLL_MS)

/**
 * Resolves once the gateway has looked for due deliveries at its clock's time and settled what it
 * found (app.deliveries.idle): what has not reached the receiver by then was not due.
 */
export const settled = (gw: { app: Gateway['app'] }) => gw.app.deliveries.idle()

/** Attempts whose outcome the gateway has recorded (all outcomes), read from its metrics. */
export async function recorded(gw: { app: Gateway['app'] }): Promise<number> {
  const text = await (await fetch((await gw.app.metricsUrl())!)).text()
  return [...text.matchAll(/^gateway_webhook_deliveries_total\{[^}]*\} (\d+)/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  )
}

/** Waits until `n` attempts have been received and their outcomes recorded (so the next due time is set). */
export async function attempts(gw: { app: Gateway['app']; receiver: { received: unknown[] } }, n: number) {
  await eventually(
    `attempt ${n}`,
    async () => gw.receiver.received.length === n && (await recorded(gw)) === n,
  )
}
