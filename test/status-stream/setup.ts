// A listening gateway in front of a fresh sandbox, with helpers to create orders and follow them.
// Followers are closed before the gateway and the sandbox, so none reconnects during teardown.
import type { Test } from 'tap'
import type { SandboxControl, SandboxOptions } from '../../src/sandbox/app.js'
import type { SubscriptionTuning } from '../../src/status-stream/plugin.js'
import type { UpstreamTuning } from '../../src/upstream/client.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { upstreamOrder } from '../helpers/upstream-order.js'
import { type Follower, follow, STATUS_EVENTS, type StatusData } from '../helpers/sse.js'

export const STREAM_ROUTE = 'GET /orders/:orderUUID/status-stream'
export const READ_ROUTE = 'GET /v1/orders/:uuid'

export interface StreamSetup {
  env?: Record<string, string>
  sandbox?: SandboxOptions
  tuning?: Partial<SubscriptionTuning>
  random?: () => number
  upstreamTuning?: Partial<UpstreamTuning>
}

/** Generous request limits: these tests are about stream limits, not the request rate limiter. */
const RATE_LIMITS = JSON.stringify({
  stream: { max: 100_000, timeWindow: '1 minute' },
  create: { max: 100_000, timeWindow: '1 minute' },
  orders: { max: 100_000, timeWindow: '1 minute' },
})

export async function streamGateway(t: Test, setup: StreamSetup = {}) {
  const followers: Follower<StatusData>[] = []
  t.teardown(() => {
    for (const f of followers) f.close()
  })
  const gw = await startGateway(t, {
    listen: true,
    // Browsers would wait about 5 s before reconnecting, and a shutdown would take 5 s; tests need not.
    env: { RATE_LIMITS, SSE_RETRY_MS: '100', SSE_DRAIN_SPREAD_MS: '0', ...setup.env },
    sandbox: setup.sandbox,
    deps: { statusStreamTuning: setup.tuning, upstreamTuning: setup.upstreamTuning, random: setup.random },
  })
  return {
    ...gw,
    control: gw.sandbox.control,
    /** Made at the upstream: an order created through the gateway is watched, keeping its subscription. */
    newOrder: () => upstreamOrder(gw.sandbox, gw.config.upstream.tenantKey ?? ''),
    streamUrl: (uuid: string) => `${gw.url}/api/orders/${uuid}/status-stream`,
    follow(uuid: string, headers?: Record<string, string>): Follower<StatusData> {
      const f = follow<StatusData>(t, `${gw.url}/api/orders/${uuid}/status-stream`, {
        events: STATUS_EVENTS,
        headers,
      })
      followers.push(f)
      return f
    },
  }
}

/**
 * Waits until the gateway follows the order upstream and has made the catch-up read that follows
 * every (re)open, so a transition driven now reaches it as an upstream event, not a catch-up.
 */
export async function subscribed(control: SandboxControl, uuid: string): Promise<void> {
  await eventually('the upstream subscription and its catch-up read', () => {
    if (control.openStreams(uuid) === 0) return false
    const mine = control.requests.filter((r) => r.path.includes(uuid))
    const lastOpen = mine.findLastIndex((r) => r.route === STREAM_ROUTE)
    return lastOpen >= 0 && mine.slice(lastOpen).some((r) => r.route === READ_ROUTE)
  })
}
