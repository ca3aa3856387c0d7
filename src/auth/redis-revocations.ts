// Logouts shared by every instance through Redis (REDIS_URL): a key per ended session, expiring with
// the session. Redis is a helper, never a dependency: while it is away, checks fail open (a copied
// session keeps working on other instances until Redis is back; sign-in and every signed-in call go
// on working), each failure is counted, and logouts are kept by this instance's memory and written
// to Redis when it answers again, so that a logout taken during an outage holds everywhere after it.
import type { Clock } from '../clock.js'
import type { RedisLink } from '../redis/plugin.js'
import type { Revocations } from './revocations.js'

export interface RedisRevocationsOptions {
  clock: Clock
  /** Logouts seen by this instance, honoured here even while Redis is away. */
  local: Revocations
  /** Counts a Redis command that failed (the check failed open). */
  failed: (operation: 'revoke' | 'check') => void
  /** Its key space (redis/stores.ts). */
  prefix: string
}

/** Logouts waiting for Redis: each a session id and an expiry, as many as the memory store keeps. */
const MAX_UNWRITTEN = 100_000

export class RedisRevocations implements Revocations {
  private readonly prefix: string
  /** Logouts Redis has not received yet: session id → when the session would end anyway. */
  private readonly unwritten = new Map<string, number>()

  constructor(
    private readonly link: RedisLink,
    private readonly options: RedisRevocationsOptions,
  ) {
    this.prefix = options.prefix
    link.onRecovery(() => this.writeBack())
  }

  async revoke(sessionId: string, untilMs: number): Promise<void> {
    await this.options.local.revoke(sessionId, untilMs)
    try {
      await this.write(sessionId, untilMs)
    } catch {
      this.options.failed('revoke')
      if (this.unwritten.size >= MAX_UNWRITTEN) this.unwritten.delete(this.unwritten.keys().next().value!)
      this.unwritten.set(sessionId, untilMs)
    }
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    if (await this.options.local.isRevoked(sessionId)) return true
    try {
      return (await this.link.client.exists(this.prefix + sessionId)) === 1
    } catch {
      this.options.failed('check')
      return false
    }
  }

  /** Sends the outage's logouts; one that fails again stays for the next recovery. */
  private async writeBack() {
    for (const [sessionId, untilMs] of this.unwritten) {
      await this.write(sessionId, untilMs)
      this.unwritten.delete(sessionId)
    }
  }

  private async write(sessionId: string, untilMs: number) {
    const ttl = Math.ceil(untilMs - this.options.clock.now())
    if (ttl > 0) await this.link.client.set(this.prefix + sessionId, '1', 'PX', ttl)
  }
}
