// Idempotency-Key records in Redis, so that every gateway instance replays the same record. A claim is
// one atomic step (set the key only if absent, else return what is there). While Redis is away the
// store falls back to a per-process store (fail open) — refusing keyed creates would stop order
// creation across the whole fleet — and the final records taken meanwhile are written to Redis when it
// answers again, so a repeat after the outage replays its order on any instance.
import type { FastifyBaseLogger } from 'fastify'
import type { Result } from 'ioredis'
import type { Clock } from '../clock.js'
import type { RedisLink } from '../redis/plugin.js'
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from './idempotency-store.js'

/** SET key value PX ttl if the key is absent; otherwise the value already there. */
const CLAIM = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`

/**
 * A final record written after an outage, unless the key already holds a final record. A "running"
 * claim is replaced: it may be this instance's own, sent as Redis hung and applied when it resumed.
 */
const WRITE_BACK = `
local existing = redis.call('GET', KEYS[1])
if existing and string.sub(existing, 1, 15) == '{"state":"done"' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`

declare module 'ioredis' {
  interface RedisCommander<Context> {
    idempotencyClaim(key: string, value: string, ttlMs: number): Result<string | null, Context>
    idempotencyWriteBack(key: string, value: string, ttlMs: number): Result<number, Context>
  }
}

export interface RedisIdempotencyOptions {
  /** Used while Redis cannot be reached. */
  fallback: IdempotencyStore
  log: FastifyBaseLogger
  clock: Clock
  /** Its key space (redis/stores.ts). */
  prefix: string
}

/** Final records waiting for Redis, as many as the memory store keeps. */
const MAX_UNWRITTEN = 100_000

export class RedisIdempotencyStore implements IdempotencyStore {
  private readonly prefix: string
  /** Keys claimed in the fallback store: their completion goes there too. */
  private readonly claimedLocally = new Set<string>()
  /** Final records Redis has not received yet: key → the record and when it expires. */
  private readonly unwritten = new Map<string, { record: string; expiresAt: number }>()

  constructor(
    private readonly link: RedisLink,
    private readonly options: RedisIdempotencyOptions,
  ) {
    const { client } = link
    if (!client.idempotencyClaim) client.defineCommand('idempotencyClaim', { numberOfKeys: 1, lua: CLAIM })
    if (!client.idempotencyWriteBack)
      client.defineCommand('idempotencyWriteBack', { numberOfKeys: 1, lua: WRITE_BACK })
    this.prefix = options.prefix
    link.onRecovery(() => this.writeBack())
  }

  async claim(key: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    // This instance's own record, not in Redis yet, answers first: a repeat must not create again.
    if (this.claimedLocally.has(key) || this.unwritten.has(key))
      return this.claimHere(key, fingerprint, ttlMs)
    const running: IdempotencyRecord = { state: 'running', fingerprint }
    try {
      const existing = await this.link.client.idempotencyClaim(
        this.prefix + key,
        JSON.stringify(running),
        ttlMs,
      )
      return existing === null ? undefined : (JSON.parse(existing) as IdempotencyRecord)
    } catch (err) {
      this.failed('claim', err)
      return this.claimHere(key, fingerprint, ttlMs)
    }
  }

  async complete(key: string, fingerprint: string, response: StoredResponse, ttlMs: number): Promise<void> {
    const record: IdempotencyRecord = { state: 'done', fingerprint, response }
    if (this.claimedLocally.delete(key)) {
      await this.options.fallback.complete(key, fingerprint, response, ttlMs)
      this.keepForRedis(key, record, ttlMs)
      // Redis may already be back: the record goes at once, or at the next recovery.
      await this.writeBack().catch(() => {})
      return
    }
    try {
      await this.link.client.set(this.prefix + key, JSON.stringify(record), 'PX', ttlMs)
    } catch (err) {
      // The answer still goes to the client; this instance replays it, and Redis gets it when back.
      this.failed('complete', err)
      await this.options.fallback.complete(key, fingerprint, response, ttlMs)
      this.keepForRedis(key, record, ttlMs)
    }
  }

  async release(key: string): Promise<void> {
    if (this.claimedLocally.delete(key)) return this.options.fallback.release(key)
    try {
      await this.link.client.del(this.prefix + key)
    } catch (err) {
      this.failed('release', err)
    }
  }

  private async claimHere(key: string, fingerprint: string, ttlMs: number) {
    const existing = await this.options.fallback.claim(key, fingerprint, ttlMs)
    if (!existing) this.claimedLocally.add(key)
    return existing
  }

  private keepForRedis(key: string, record: IdempotencyRecord, ttlMs: number) {
    if (this.unwritten.size >= MAX_UNWRITTEN) this.unwritten.delete(this.unwritten.keys().next().value!)
    this.unwritten.set(key, { record: JSON.stringify(record), expiresAt: this.options.clock.now() + ttlMs })
  }

  /** Sends the records kept during an outage; one that fails again stays for the next recovery. */
  private async writeBack() {
    for (const [key, { record, expiresAt }] of this.unwritten) {
      const ttl = Math.ceil(expiresAt - this.options.clock.now())
      if (ttl > 0) await this.link.client.idempotencyWriteBack(this.prefix + key, record, ttl)
      this.unwritten.delete(key)
    }
  }

  private failed(operation: string, err: unknown) {
    this.options.log.warn(
      { redis: { operation, error: err instanceof Error ? err.message : String(err) } },
      'idempotency record not reachable in redis; kept by this process until redis answers again',
    )
  }
}
