// The Web Push capability (docs/notifications.md, "Web Push"): its routes, the subscriptions store
// (`push` key space), the sink that hands each order event to the `push` delivery channel, and the
// sender that channel calls. Off when the configuration has no keys (production without them): its
// routes then answer 404 as any unknown route does.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { type Resolve, systemResolve } from './endpoint-guard.js'
import { pushMetrics } from './metrics.js'
import { RedisSubscriptions } from './redis-subscriptions.js'
import { pushRoutes } from './routes.js'
import { PushSender } from './sender.js'
import { PushSink } from './sink.js'
import { MemorySubscriptions, type PushSubscriptions } from './subscriptions.js'
import { type VapidKeys, vapidSigningKey } from './vapid-keys.js'

/** Web Push's slice of the configuration (config.ts: the WEB_PUSH_* variables). */
export interface PushConfig {
  keys: VapidKeys
  /** True when the pair was made up for this process (development only): subscriptions die with it. */
  keysGenerated: boolean
  subject: string
  ttlS: number
  maxPerOrder: number
  /** WEB_PUSH_ALLOW_LOCAL_ENDPOINTS. */
  allowLocalEndpoints: boolean
}

export interface PushOptions {
  apiPrefix: string
  /** Undefined: Web Push is off. */
  push: PushConfig | undefined
  /** How endpoint hosts are resolved (tests answer with the addresses they need). */
  resolve?: Resolve
}

/** The push service's answers, 5 s to 10 min apart (each spread by the channel). */
const SCHEDULE_MS = [5_000, 30_000, 120_000, 600_000]
/** Deadline of one push. */
const SEND_TIMEOUT_MS = 15_000

export const pushPlugin = fp(
  async (app: FastifyInstance, opts: PushOptions) => {
    const config = opts.push
    if (!config) {
      app.log.info('Web Push is off: set WEB_PUSH_PUBLIC_KEY, WEB_PUSH_PRIVATE_KEY and WEB_PUSH_SUBJECT')
      return
    }
    if (config.keysGenerated)
      app.log.warn(
        'WEB_PUSH_PUBLIC_KEY and WEB_PUSH_PRIVATE_KEY are not set: a key pair was made for this process, and browsers subscribed with it cannot be pushed to after a restart (npm run vapid-keys prints a pair)',
      )
    const signingKey = vapidSigningKey(config.keys)
    if (!signingKey) throw new Error('WEB_PUSH_PRIVATE_KEY is not the private key of WEB_PUSH_PUBLIC_KEY')
    const { clock } = app
    const store = app.stores.create<PushSubscriptions>('push', {
      memory: () => new MemorySubscriptions(clock),
      redis: (link, prefix) => new RedisSubscriptions(link, clock, prefix),
    })
    const rules = { allowLocal: config.allowLocalEndpoints, resolve: opts.resolve ?? systemResolve }
    const sender = new PushSender({
      publicKey: config.keys.publicKey,
      signingKey,
      subject: config.subject,
      ttlS: config.ttlS,
      rules,
      timeoutMs: SEND_TIMEOUT_MS,
      clock,
      log: app.log,
      store,
    })
    const counted = pushMetrics(app.metrics, store)
    const channel = app.deliveries.channel({
      name: 'push',
      scheduleMs: SCHEDULE_MS,
      send: (delivery) => sender.send(delivery),
      leaseMs: 2 * SEND_TIMEOUT_MS,
      onOutcome: counted,
    })
    const storeUp = () => app.redis?.up ?? true
    const sink = new PushSink({ store, channel, now: () => clock.now(), storeUp, log: app.log })
    app.orderEvents.subscribe((event) => sink.handle(event))
    // After the deliveries' own write-back (registered first): its enqueues are kept until the next claim.
    app.redis?.onRecovery(() => sink.handOnHeld())
    // After the channel's worker has stopped (onClose hooks run in reverse): no attempt is cut off.
    app.addHook('onClose', () => sender.close())
    await app.register(pushRoutes, {
      prefix: opts.apiPrefix,
      publicKey: config.keys.publicKey,
      maxPerOrder: config.maxPerOrder,
      rules,
      store,
      sink,
      storeUp,
    })
  },
  {
    name: 'push',
    dependencies: ['metrics', 'redis', 'upstream', 'orders', 'watch', 'deliveries'],
    decorators: {
      fastify: ['clock', 'metrics', 'stores', 'orderReader', 'orderEvents', 'orderWatch', 'deliveries'],
    },
  },
)
