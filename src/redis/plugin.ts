// The one Redis connection of a gateway process (REDIS_URL): shared rate-limit counters, idempotency
// records and logouts. Redis is a shared helper with a deadline, never a dependency: every command
// has REDIS_COMMAND_TIMEOUT_MS; a connection that gives no answer within it is dropped, so later
// commands fail at once (no offline queue) instead of each waiting a deadline, and each reconnect's
// handshake is the probe that tells when Redis answers in time again. Records taken while it was away
// are written back (onRecovery) before the link reports itself up. Each change of state is logged
// once instead of once per reconnect attempt.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Redis } from 'ioredis'
import { ConfigError } from '../errors.js'
import type { ReadinessCheck } from '../observability/readiness.js'
import { storesOn } from './stores.js'

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
  /** Deadline of one command (REDIS_COMMAND_TIMEOUT_MS): a Redis that hangs must not hang requests. */
  commandTimeoutMs: number
}

type LinkState = 'connecting' | 'up' | 'down'

/** A reply error of ioredis carries the command it answered. */
type CommandError = Error & { command?: { name: string } }

export class RedisLink {
  readonly client: Redis
  private state: LinkState = 'connecting'
  private reason = 'not connected yet'
  /** Redis refused the database REDIS_URL names: a configuration error, never a fallback to db 0. */
  private refusal: string | undefined
  private readonly recoveries: Array<() => Promise<void>> = []

  constructor(
    private readonly options: RedisLinkOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      // A stopped Redis keeps its socket open: no data within the deadline drops the connection.
      socketTimeout: options.commandTimeoutMs,
      connectTimeout: options.connectWaitMs,
      // Short: records taken during an outage are written back at the first reconnect.
      retryStrategy: (attempt) => Math.min(attempt * 200, 1_000),
    })
    this.client.on('ready', () => void this.recovered())
    this.client.on('error', (err: CommandError) => {
      if (err.command?.name === 'select' && this.refusal === undefined) {
        this.refusal = err.message
        this.log.error(
          { redis: 'down', reason: this.describe(err) },
          'redis refused the database REDIS_URL names: rate limits, idempotency keys and logouts stay in this process until REDIS_URL is fixed',
        )
      }
      this.mark('down', this.describe(err))
    })
    // Follows an error when there is one: keep the error's reason, which says more.
    this.client.on('close', () => this.state !== 'down' && this.mark('down', 'connection closed'))
  }

  get up(): boolean {
    return this.state === 'up'
  }

  /** Runs each time Redis answers again, before the link reports up: write-backs of an outage's records. */
  onRecovery(task: () => Promise<void>): void {
    this.recoveries.push(task)
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
      // On the process's timers: it bounds the wait for a real connection (ioredis reconnects on its own).
      const timer = setTimeout(done, this.options.connectWaitMs)
      this.client.once('ready', done)
      this.client.once('error', done)
    })
  }

  /** The refusal of REDIS_URL's database, as a start-up error naming the variable. */
  configurationError(): ConfigError | undefined {
    if (this.refusal === undefined) return undefined
    const db = new URL(this.options.url).pathname.slice(1)
    return new ConfigError(
      `Invalid configuration:\n  REDIS_URL: Redis refused database ${db} (${this.refusal})`,
    )
  }

  /** A readiness check that degrades /readyz without failing it (see docs/operations.md). */
  readiness(): ReadinessCheck {
    return {
      name: 'redis',
      degradesOnly: true,
      problem: () => {
        if (this.refusal !== undefined) return `REDIS_URL names a database Redis refused: ${this.refusal}`
        return this.up ? undefined : `unreachable: ${this.reason}`
      },
    }
  }

  async close(): Promise<void> {
    this.state = 'down'
    await this.client.quit().catch(() => this.client.disconnect())
  }

  private async recovered() {
    if (this.refusal !== undefined) {
      // Never database 0 in its place: no reconnect (start-up turns this into an error naming REDIS_URL).
      this.client.disconnect()
      return
    }
    for (const task of this.recoveries) await task().catch(() => {})
    if (this.client.status === 'ready') this.mark('up', 'connected')
  }

  private describe(err: CommandError): string {
    if (err.command?.name === 'select') return `REDIS_URL names a database Redis refused: ${err.message}`
    if (/^Socket timeout/.test(err.message)) return `no answer within ${this.options.commandTimeoutMs} ms`
    return err.message || err.name
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
        'redis unreachable: rate limits and logout checks fail open, idempotency keys and logouts are kept by this process and written back when it returns',
      )
    }
  }
}

/** Longest wait for the first connection at start-up. */
const CONNECT_WAIT_MS = 2_000

export interface RedisOptions {
  /** REDIS_URL; undefined: every store stays in this process. */
  url: string | undefined
  /** REDIS_COMMAND_TIMEOUT_MS. */
  commandTimeoutMs: number
}

export const redisPlugin = fp(
  async (app: FastifyInstance, opts: RedisOptions) => {
    if (!opts.url) {
      app.decorate('redis', undefined)
      app.decorate('stores', storesOn(undefined))
      return
    }
    const link = new RedisLink(
      { url: opts.url, connectWaitMs: CONNECT_WAIT_MS, commandTimeoutMs: opts.commandTimeoutMs },
      app.log,
    )
    app.decorate('redis', link)
    app.decorate('stores', storesOn(link))
    app.readiness.add(link.readiness())
    app.metrics.gauge({
      name: 'gateway_redis_up',
      help: '1 while the Redis shared by the instances is reachable',
      collect() {
        this.set(link.up ? 1 : 0)
      },
    })
    app.addHook('onClose', () => link.close())
    await link.waitUntilReady()
    const refused = link.configurationError()
    if (refused) {
      await link.close()
      throw refused
    }
  },
  { name: 'redis', dependencies: ['metrics', 'readiness'] },
)
