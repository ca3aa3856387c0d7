// Fixed-window counters of our own, for the two limits @fastify/rate-limit cannot host: the per-IP
// ceiling of signed-in users and the upstream call budget. A window starts with its key's first hit
// and ends windowMs later; in Redis it is one short script (INCR, PEXPIRE on the first hit, PTTL), so
// every instance counts into the same key atomically.
import type { Redis, Result } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { Clock } from '../clock.js'

export interface WindowCount {
  /** Hits in the key's current window, this one included. */
  count: number
  /** Milliseconds until the window ends. */
  resetMs: number
}

export interface WindowCounter {
  /** Counts one hit; rejects when the store cannot be reached (callers choose how to fail). */
  hit(key: string, windowMs: number): Promise<WindowCount>
}

export class MemoryWindowCounter implements WindowCounter {
  private readonly windows: LRUCache<string, { count: number; endsAt: number }>

  constructor(
    private readonly clock: Clock,
    maxKeys: number,
  ) {
    this.windows = new LRUCache({ max: maxKeys })
  }

  hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock.now()
    let window = this.windows.get(key)
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs }
      this.windows.set(key, window)
    }
    window.count += 1
    return Promise.resolve({ count: window.count, resetMs: window.endsAt - now })
  }
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gatewayWindowHit(key: string, windowMs: number): Result<[number, number], Context>
  }
}

export class RedisWindowCounter implements WindowCounter {
  constructor(
    private readonly client: Redis,
    /** Prepended to every key: the gateway's namespace for this counter's purpose. */
    private readonly prefix: string,
  ) {
    // ioredis sends the script by its SHA and loads it on first use; one definition per connection.
    if (!client.gatewayWindowHit)
      client.defineCommand('gatewayWindowHit', { numberOfKeys: 1, lua: HIT_SCRIPT })
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, pttl] = await this.client.gatewayWindowHit(this.prefix + key, windowMs)
    return { count, resetMs: pttl > 0 ? pttl : windowMs }
  }
}
