// Sessions ended by logout (docs/auth.md). A session is a seal any instance can open, so logout
// records the session's id until the session's own end, and every read of a session asks here. In
// the process's memory (one instance only) unless Redis is configured (auth/redis-revocations.ts).
import { LRUCache } from 'lru-cache'
import type { Clock } from '../clock.js'

export interface Revocations {
  /** Records `sessionId` as ended until `untilMs` (epoch ms), when the session would end anyway. */
  revoke(sessionId: string, untilMs: number): Promise<void>
  isRevoked(sessionId: string): Promise<boolean>
}

/** Logouts kept: each entry is a session id, about a hundred bytes. */
const MAX_REMEMBERED = 100_000

export class MemoryRevocations implements Revocations {
  private readonly ended: LRUCache<string, true>

  constructor(private readonly clock: Clock) {
    this.ended = new LRUCache<string, true>({
      max: MAX_REMEMBERED,
      // No timers inside lru-cache, and its time is our injected clock.
      ttlResolution: 0,
      perf: { now: () => clock.now() },
    })
  }

  async revoke(sessionId: string, untilMs: number): Promise<void> {
    const ttl = untilMs - this.clock.now()
    if (ttl > 0) this.ended.set(sessionId, true, { ttl })
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    return this.ended.has(sessionId)
  }
}
