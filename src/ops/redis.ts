// The one Redis connection of a gateway process (REDIS_URL): shared rate-limit counters and
// idempotency records. Redis is a helper, never a dependency: commands fail fast while it is away
// (no offline queue, a command deadline) so callers can fall back, and each change of state is
// logged once instead of once per reconnect attempt.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Redis } from 'ioredis'
import type { ReadinessCheck } from './health.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Undefined without REDIS_URL. */
    redis: RedisLink | undefined
  }
}

export interface RedisLinkOptions {
  url: string
  /** How long start-up waits for the first connection before serving without it. */
  connectWaitMs: number
  /** Deadline of one command: a Redis that hangs must not hang requests. */
  commandTimeoutMs: number
}

type LinkState = 'connecting' | 'up' | 'down'

export class RedisLink {
  readonly client: Redis
  private state: LinkState = 'connecting'
  private reason = 'not connected yet'

  constructor(
    private readonly options: RedisLinkOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: options.connectWaitMs,
      retryStrategy: (attempt) => Math.min(attempt * 250, 2_000),
    })
    this.client.on('ready', () => this.mark('up', 'connected'))
    this.client.on('error', (err: Error) => this.mark('down', err.message || err.name))
    this.client.on('close', () => this.mark('down', 'connection closed'))
  }

  get up(): boolean {
    return this.state === 'up'
  }

  /** Resolves once connected, at the first failure, or after connectWaitMs: the gateway starts either way. */
  waitUntilReady(): Promise<void> {
    if (this.up) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.client.off('ready', done)
        this.client.off('error', done)
        resolve()
      }
      const timer = setTimeout(done, this.options.connectWaitMs)
      this.client.once('ready', done)
      this.client.once('error', done)
    })
  }

  /** A readiness check that degrades /readyz without failing it (see docs/operations.md). */
  readiness(): ReadinessCheck {
    return {
      name: 'redis',
      degradesOnly: true,
      problem: () => (this.up ? undefined : `unreachable: ${this.reason}`),
    }
  }

  async close(): Promise<void> {
    this.state = 'down'
    await this.client.quit().catch(() => this.client.disconnect())
  }

  private mark(state: 'up' | 'down', reason: string) {
    const changed = state !== this.state
    this.reason = reason
    if (!changed) return
    const previous = this.state
    this.state = state
    if (state === 'up') {
      this.log[previous === 'down' ? 'warn' : 'info'](
        { redis: 'up' },
        'redis connected: rate limits, idempotency keys and logouts are shared',
      )
    } else {
      this.log.error(
        { redis: 'down', reason },
        'redis unreachable: rate limits and logout checks fail open, idempotency keys and logouts fall back to this process only',
      )
    }
  }
}

/** Redis answers in well under a millisecond; a second without an answer means it is in trouble. */
const COMMAND_TIMEOUT_MS = 1_000
const CONNECT_WAIT_MS = 2_000

export const redisPlugin = fp(
  async (app: FastifyInstance, opts: { url: string | undefined }) => {
    if (!opts.url) {
      app.decorate('redis', undefined)
      return
    }
    const link = new RedisLink(
      { url: opts.url, connectWaitMs: CONNECT_WAIT_MS, commandTimeoutMs: COMMAND_TIMEOUT_MS },
      app.log,
    )
    app.decorate('redis', link)
    app.addHook('onClose', () => link.close())
    await link.waitUntilReady()
  },
  { name: 'redis' },
)
