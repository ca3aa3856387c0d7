// Logouts shared by every instance through Redis (REDIS_URL): a key per ended session, expiring with
// the session. Redis is a helper, never a dependency: while it is away, checks fail open (a copied
// session keeps working on other instances until Redis is back; sign-in and every signed-in call go
// on working), each failure is counted, and logouts are still kept by this instance's memory.
import type { Redis } from 'ioredis'
import type { Clock } from '../clock.js'
import type { Revocations } from './revocations.js'

export interface RedisRevocationsOptions {
  clock: Clock
  /** Logouts seen by this instance, honoured here even while Redis is away. */
  local: Revocations
  /** Counts a Redis command that failed (the check failed open). */
  failed: (operation: 'revoke' | 'check') => void
  prefix?: string
}

export class RedisRevocations implements Revocations {
  private readonly prefix: string

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisRevocationsOptions,
  ) {
    this.prefix = options.prefix ?? 'swap-gateway:revoked:'
  }

  async revoke(sessionId: string, untilMs: number): Promise<void> {
    await this.options.local.revoke(sessionId, untilMs)
    const ttl = Math.ceil(untilMs - this.options.clock.now())
    if (ttl <= 0) return
    try {
      await this.redis.set(this.prefix + sessionId, '1', 'PX', ttl)
    } catch {
      this.options.failed('revoke')
    }
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    if (await this.options.local.isRevoked(sessionId)) return true
    try {
      return (await this.redis.exists(this.prefix + sessionId)) === 1
    } catch {
      this.options.failed('check')
      return false
    }
  }
}
