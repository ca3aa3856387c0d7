// The wallet stream capability (docs/stream.md): every order event of a signed-in user, appended to
// that user's log (in Redis when configured, shared by every instance), and the route that streams it.
// Its streams are held in the SSE registry (`app.sseRegistry`) with the others, and it reads the order
// events the watch publishes, so it comes after the watch.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { walletEntryOf } from './events.js'
import { WalletHub } from './hub.js'
import { MemoryWalletLog, type WalletLog } from './log.js'
import { RedisWalletLog } from './redis-log.js'
import { walletStreamRoute } from './route.js'

declare module 'fastify' {
  interface FastifyInstance {
    walletHub: WalletHub
  }
}

export interface WalletStreamOptions {
  apiPrefix: string
  /** WALLET_EVENTS_RETAIN_MS: how long a user's events are kept for a reconnect. */
  retainMs: number
}

export const walletStreamPlugin = fp(
  async (app: FastifyInstance, opts: WalletStreamOptions) => {
    const { clock } = app
    const events = app.stores.create<WalletLog>('wallet', {
      memory: () => new MemoryWalletLog(clock, opts.retainMs),
      redis: (link, prefix) =>
        new RedisWalletLog(link, { clock, retainMs: opts.retainMs, prefix, log: app.log }),
    })
    const streams = app.sseRegistry
    const hub = new WalletHub({ clock, log: app.log, streams, events })
    app.decorate('walletHub', hub)
    let appended = 0
    app.orderEvents.subscribe(async (event) => {
      // Anonymous orders belong to no wallet.
      if (event.userId === null) return
      await events.append(event.userId, event.id, walletEntryOf(event))
      appended++
    })
    app.metrics.read(() => ({ open: streams.openOf('wallet'), appended }), {
      gateway_wallet_streams_open: { kind: 'gauge', help: 'Client wallet streams open', pick: (s) => s.open },
      gateway_wallet_events_total: {
        kind: 'counter',
        help: "Order events appended to their user's wallet log by this instance",
        pick: (s) => s.appended,
      },
    })
    app.addHook('onClose', () => events.close())
    await app.register(walletStreamRoute, { prefix: opts.apiPrefix, hub, streams })
  },
  {
    name: 'wallet-stream',
    dependencies: ['client-ip', 'metrics', 'upstream', 'auth', 'redis', 'sse', 'watch'],
    decorators: { fastify: ['clock', 'stores', 'sessions', 'sseRegistry', 'orderEvents', 'orderWatch'] },
  },
)
