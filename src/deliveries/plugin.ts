// `app.deliveries`: durable delivery channels (webhooks, Web Push). Each channel keeps its deliveries
// in the `deliveries` key space with REDIS_URL (shared by the fleet, surviving restarts), in this
// process without it; its worker starts when the app is ready and stops, its attempts in flight
// awaited, when the app closes. docs/notifications.md ("Deliveries") says why this engine.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ChannelWorker, DEFAULT_TUNING, type DeliveryTuning } from './channel.js'
import { MemoryDeliveryStore } from './memory-store.js'
import type { DeliveryStore } from './record.js'
import { RedisDeliveryStore } from './redis-store.js'
import type { Deliveries } from './types.js'

declare module 'fastify' {
  interface FastifyInstance {
    deliveries: Deliveries
  }
}

export interface DeliveriesOptions {
  /** Tests shorten the poll interval (on the app's clock, which they move). */
  tuning?: Partial<DeliveryTuning>
}

export const deliveriesPlugin = fp(
  async (app: FastifyInstance, opts: DeliveriesOptions) => {
    const tuning = { ...DEFAULT_TUNING, ...opts.tuning }
    const workers: ChannelWorker[] = []
    let started = false
    app.decorate('deliveries', {
      channel(options) {
        const store = app.stores.create<DeliveryStore>('deliveries', {
          memory: () => new MemoryDeliveryStore(),
          redis: (link, prefix) => new RedisDeliveryStore(link, `${prefix}${options.name}:`),
        })
        const worker = new ChannelWorker(store, options, {
          clock: app.clock,
          random: app.random,
          log: app.log,
          tuning,
        })
        workers.push(worker)
        if (started) worker.start()
        return worker
      },
      async idle() {
        await Promise.all(workers.map((worker) => worker.idle()))
      },
    })
    app.addHook('onReady', async () => {
      started = true
      for (const worker of workers) worker.start()
    })
    // Before any onClose: the senders' connections (closed there) still serve the attempts in flight.
    app.addHook('preClose', async () => {
      await Promise.all(workers.map((worker) => worker.stop()))
    })
  },
  { name: 'deliveries', dependencies: ['redis'], decorators: { fastify: ['stores', 'clock', 'random'] } },
)
