// The watch: every order created through this gateway (from its fresh 201) and every order
// `orderWatch.follow(uuid)` names is followed until it is terminal or WATCH_MAX_MS have passed, by
// one instance of the fleet at a time, and each change is published on `orderEvents` once for the
// fleet (webhooks, Web Push and the wallet's stream subscribe there). With REDIS_URL the watches, the
// last reported statuses, the leases and the outbox are shared in Redis; without it they are this
// process's and end with it.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { MemoryWatchStore } from './memory-store.js'
import { watchMetrics } from './metrics.js'
import { OrderEvents } from './order-event.js'
import { RedisWatchStore } from './redis-store.js'
import type { WatchStore } from './store.js'
import { defaultWatchTuning, OrderWatcher, type WatchTuning } from './watcher.js'

export type { WatchTuning } from './watcher.js'

export interface OrderWatch {
  /** Follows the order until it is terminal (idempotent): the push subscribe route and the wallet stream call it. */
  follow(orderId: string): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    orderEvents: OrderEvents
    orderWatch: OrderWatch
  }
}

export interface WatchOptions {
  /** WATCH_MAX_MS: how long a watch lasts at most. */
  maxMs: number
  /** WATCH_LEASE_MS: how long an instance holds an order without renewing. */
  leaseMs: number
  tuning?: Partial<WatchTuning>
}

export const watchPlugin = fp(
  async (app: FastifyInstance, opts: WatchOptions) => {
    const events = new OrderEvents()
    const store = app.stores.create<WatchStore>('watch', {
      memory: () => new MemoryWatchStore(),
      redis: (link, prefix) => new RedisWatchStore(link, prefix, opts.leaseMs),
    })
    const log = app.log.child({ component: 'watch' })
    // Read at scrape time, once the watcher exists.
    const counts = watchMetrics(app.metrics, () => watch.size)
    const watch = new OrderWatcher({
      store,
      events,
      follow: (orderId, read, member) => app.statusHub.follow(orderId, read, member),
      read: (orderId) =>
        app.orderReader.read(app.upstreamContextFor(`watch-${orderId.slice(0, 8)}`, log), orderId),
      clock: app.clock,
      log,
      counts,
      maxMs: opts.maxMs,
      leaseMs: opts.leaseMs,
      tuning: { ...defaultWatchTuning(opts.leaseMs), ...opts.tuning },
    })
    app.orderCreations.subscribe((created) => watch.created(created))
    app.decorate('orderEvents', events)
    app.decorate('orderWatch', { follow: (orderId: string) => watch.follow(orderId) })
    app.addHook('onReady', async () => watch.start())
    // Phase 2 of the shutdown: the leases go back as the instance stops taking connections.
    app.addHook('preClose', async () => watch.close())
  },
  {
    name: 'watch',
    dependencies: ['redis', 'metrics', 'upstream', 'orders', 'status-stream'],
    decorators: {
      fastify: [
        'clock',
        'stores',
        'metrics',
        'orderReader',
        'orderCreations',
        'statusHub',
        'upstreamContextFor',
      ],
    },
  },
)
