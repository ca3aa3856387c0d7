// Wallet streams against a listening gateway and a fresh sandbox: users signed in as apps do (Bearer
// session tokens), their orders created through the gateway's create route over HTTP, order events
// published on the gateway's `orderEvents` as the watch publishes them (or by the watch itself, with
// `watchTuning`), and the streams read raw or through an EventSource.
import type { Test } from 'tap'
import type { AppDeps } from '../../src/app.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { Client, PUBLIC_ORIGIN } from '../auth/client.js'
import { fakeClock, type FakeClock } from '../helpers/clock.js'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { follow, type Follower, readRaw } from '../helpers/sse.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

export const WALLET_EVENTS = ['snapshot', 'order-created', 'orders:status-update']
export type Order = Record<string, unknown> & { uuid: string; status: string; userId: string | null }

const RATE_LIMITS = JSON.stringify({
  stream: { max: 100_000, timeWindow: '1 minute' },
  create: { max: 100_000, timeWindow: '1 minute' },
  orders: { max: 100_000, timeWindow: '1 minute' },
  auth: { max: 100_000, timeWindow: '1 minute' },
})

export interface WalletSetup {
  env?: Record<string, string>
  clock?: FakeClock
  /** Another gateway's sandbox to share (a fleet: one upstream, one Redis). */
  upstreamOf?: { sandbox: { url: string } }
  /** The watch's rounds, shortened when a test relies on the watch's own events. */
  watchTuning?: AppDeps['watchTuning']
}

export type WalletGateway = Awaited<ReturnType<typeof walletGateway>>

export async function walletGateway(t: Test, setup: WalletSetup = {}) {
  const clock = setup.clock ?? fakeClock({ running: true })
  const gw = await startGateway(t, {
    listen: true,
    env: {
      PUBLIC_ORIGIN,
      RATE_LIMITS,
      SSE_RETRY_MS: '100',
      SSE_DRAIN_SPREAD_MS: '0',
      ...(setup.upstreamOf ? { UPSTREAM_URL: setup.upstreamOf.sandbox.url } : {}),
      ...setup.env,
    },
    deps: { clock, watchTuning: setup.watchTuning },
  })
  const p = picks(gw.sandbox.control.tokens())
  const streamUrl = (limit?: number) => `${gw.url}/api/v1/orders/stream${limit ? `?limit=${limit}` : ''}`
  return {
    ...gw,
    clock,
    streamUrl,
    /** A new wallet signed in: its Bearer token and upstream user id. */
    async user() {
      const { verify } = await signInThroughGateway(new Client(gw.url, null), newWallet(), '1', {
        'x-session-mode': 'token',
      })
      if (verify.status !== 201) throw new Error(`sign-in failed: ${verify.text}`)
      const token = verify.json.sessionToken as string
      return {
        token,
        userId: verify.json.userId as string,
        auth: { authorization: `Bearer ${token}` },
        /** When the session counts as lapsed (`expiresAt`), on the gateway's clock. */
        lapsesAt: Date.parse(verify.json.expiresAt as string),
      }
    },
    /** An order created through the gateway's create route, as the signed-in user (or anonymously). */
    async createOrder(token?: string): Promise<Order> {
      const res = await fetch(`${gw.url}/api/v1/orders/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(orderBody(p)),
      })
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`)
      return (await res.json()) as Order
    },
    async logout(token: string) {
      const res = await gw.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: `Bearer ${token}` },
      })
      if (res.statusCode !== 204) throw new Error(`logout failed: ${res.statusCode} ${res.body}`)
    },
    async readOrder(uuid: string): Promise<Order> {
      return (await gw.app.inject({ url: `/api/v1/orders/${uuid}` })).json()
    },
    raw: (headers: Record<string, string>, limit?: number) => readRaw(streamUrl(limit), headers),
    follow: (headers: Record<string, string>): Follower =>
      follow(t, streamUrl(), { events: WALLET_EVENTS, headers }),
  }
}

/** The order event the watch would publish for this order (created, or a move to its status now). */
export function orderEvent(
  order: Pick<Order, 'uuid' | 'status' | 'userId'>,
  previousStatus: string | null = null,
): OrderEvent {
  return {
    id: previousStatus === null ? `${order.uuid}.created` : `${order.uuid}.${order.status}`,
    type: previousStatus === null ? 'order.created' : 'order.status_changed',
    timestamp: new Date().toISOString(),
    orderId: order.uuid,
    status: order.status,
    previousStatus,
    userId: order.userId,
    order,
  } as OrderEvent
}
