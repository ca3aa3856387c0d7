// Gateways of one fleet in one process (apps on one Redis, in front of one sandbox) for the watch's
// lease tests, and what those tests read from them.
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import type { AppDeps } from '../../src/app.js'
import { startGateway } from '../helpers/gateway.js'
import { redisServerInstalled } from '../ops/private-redis.js'
import { FAST, metric } from './recorder.js'

export const skip = redisServerInstalled() ? false : 'redis-server is not installed'
export const LEASE_MS = 1_000

type Gateway = Awaited<ReturnType<typeof startGateway>>

/** `n` gateways on one Redis, all in front of the first one's sandbox. */
export async function fleet(
  t: Test,
  redisUrl: string,
  n: number,
  { deps = [], upstream, leaseMs = LEASE_MS }: { deps?: AppDeps[]; upstream?: string; leaseMs?: number } = {},
) {
  const env = { REDIS_URL: redisUrl, WATCH_LEASE_MS: String(leaseMs) }
  const gateways: Gateway[] = []
  for (let i = 0; i < n; i++) {
    const url = upstream ?? gateways[0]?.sandbox.url
    gateways.push(
      await startGateway(t, {
        env: { ...env, ...(url ? { UPSTREAM_URL: url } : {}) },
        deps: { watchTuning: FAST, ...deps[i] },
      }),
    )
  }
  return gateways
}

export const watched = (app: FastifyInstance) => metric(app, 'gateway_watched_orders')
export const statusEvents = async (apps: FastifyInstance[]) => {
  let sum = 0
  for (const app of apps)
    sum += await metric(app, 'gateway_order_events_total', '{type="order.status_changed"}')
  return sum
}
export const settle = () => new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS))
