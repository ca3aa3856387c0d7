// Gateways of one fleet in one process (apps on one Redis, in front of one sandbox) for the watch's
// lease tests, and what those tests read from them.
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import type { AppDeps } from '../../src/app.js'
import type { Clock } from '../../src/clock.js'
import { KEY_SPACES } from '../../src/redis/stores.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { redisServerInstalled } from '../ops/private-redis.js'
import { FAST, metric } from './recorder.js'

export const skip = redisServerInstalled() ? false : 'redis-server is not installed'
export const LEASE_MS = 1_000

type Gateway = Awaited<ReturnType<typeof startGateway>>

/** `n` gateways on one Redis, all in front of the first one's sandbox, on one clock when given. */
export async function fleet(
  t: Test,
  redisUrl: string,
  n: number,
  {
    deps = [],
    upstream,
    leaseMs = LEASE_MS,
    clock,
  }: { deps?: AppDeps[]; upstream?: string; leaseMs?: number; clock?: Clock } = {},
) {
  const env = { REDIS_URL: redisUrl, WATCH_LEASE_MS: String(leaseMs) }
  const gateways: Gateway[] = []
  for (let i = 0; i < n; i++) {
    const url = upstream ?? gateways[0]?.sandbox.url
    gateways.push(
      await startGateway(t, {
        env: { ...env, ...(url ? { UPSTREAM_URL: url } : {}) },
        deps: { watchTuning: FAST, ...(clock ? { clock } : {}), ...deps[i] },
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

/** The fleet's heartbeats in Redis: each live instance, stamped with its clock by every watch round. */
async function heartbeats(app: FastifyInstance): Promise<Map<string, number>> {
  const flat = await app.redis!.client.zrange(`${KEY_SPACES.watch}instances`, '0', '-1', 'WITHSCORES')
  const beats = new Map<string, number>()
  for (let i = 0; i < flat.length; i += 2) beats.set(flat[i]!, Number(flat[i + 1]))
  return beats
}

/**
 * Resolves once every live instance (read through `app`'s Redis) has run a whole watch round that
 * began at `at` or later by its clock: its heartbeat reached `at` (stamped after the round re-published
 * what the outbox held), then moved again (the next round begins once that one, takeovers included,
 * has ended). For clocks that run: a clock held still stamps the same time twice.
 */
export async function roundsSince(app: FastifyInstance, at: number): Promise<void> {
  let reached = new Map<string, number>()
  await eventually('a round of every instance since', async () => {
    reached = await heartbeats(app)
    return [...reached.values()].every((beat) => beat >= at)
  })
  await eventually('the round after it', async () => {
    const now = await heartbeats(app)
    return [...reached].every(([id, beat]) => (now.get(id) ?? Number.POSITIVE_INFINITY) > beat)
  })
}
