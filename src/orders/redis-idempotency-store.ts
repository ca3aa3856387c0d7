// Idempotency-Key records in Redis, so that every gateway instance replays the same record. A claim is
// one atomic step (set the key only if absent, else return what is there). While Redis is away the
// store falls back to a per-process store (fail open): a repeat that lands on another instance then
// creates a second order, which is harmless — an unfunded order costs nothing and expires by itself —
// whereas refusing keyed creates would stop order creation across the whole fleet.
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from './idempotency-store.js'

/** SET key value PX ttl if the key is absent; otherwise the value already there. */
const CLAIM = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`

type ClaimingRedis = Redis & {
  idempotencyClaim(key: string, value: string, ttlMs: number): Promise<string | null>
}

export interface RedisIdempotencyOptions {
  /** Used while Redis cannot be reached. */
  fallback: IdempotencyStore
  log: FastifyBaseLogger
  prefix?: string
}

export class RedisIdempotencyStore implements IdempotencyStore {
  private readonly redis: ClaimingRedis
  private readonly prefix: string
  /** Keys claimed in the fallback store: their completion goes there too. */
  private readonly claimedLocally = new Set<string>()

  constructor(
    redis: Redis,
    private readonly options: RedisIdempotencyOptions,
  ) {
    if (!('idempotencyClaim' in redis))
      redis.defineCommand('idempotencyClaim', { numberOfKeys: 1, lua: CLAIM })
    this.redis = redis as ClaimingRedis
    this.prefix = options.prefix ?? 'swap-gateway:idempotency:'
  }

  async claim(key: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    const running: IdempotencyRecord = { state: 'running', fingerprint }
    try {
      const existing = await this.redis.idempotencyClaim(this.prefix + key, JSON.stringify(running), ttlMs)
      return existing === null ? undefined : (JSON.parse(existing) as IdempotencyRecord)
    } catch (err) {
      this.failed('claim', err)
      const existing = await this.options.fallback.claim(key, fingerprint, ttlMs)
      if (!existing) this.claimedLocally.add(key)
      return existing
    }
  }

  async complete(key: string, fingerprint: string, response: StoredResponse, ttlMs: number): Promise<void> {
    if (this.claimedLocally.delete(key))
      return this.options.fallback.complete(key, fingerprint, response, ttlMs)
    const record: IdempotencyRecord = { state: 'done', fingerprint, response }
    try {
      await this.redis.set(this.prefix + key, JSON.stringify(record), 'PX', ttlMs)
    } catch (err) {
      // The answer still goes to the client; the claim expires on its own and a repeat creates anew.
      this.failed('complete', err)
    }
  }

  async release(key: string): Promise<void> {
    if (this.claimedLocally.delete(key)) return this.options.fallback.release(key)
    try {
      await this.redis.del(this.prefix + key)
    } catch (err) {
      this.failed('release', err)
    }
  }

  private failed(operation: string, err: unknown) {
    this.options.log.warn(
      { redis: { operation, error: err instanceof Error ? err.message : String(err) } },
      'idempotency record not reachable in redis; using this process only',
    )
  }
}
