// Which address each challenge's nonce was issued for (docs/auth.md, "How verify checks a message"),
// so that a nonce handed to one wallet is refused in another wallet's message. Sessions are sealed
// cookies, but a nonce is not: the upstream makes it, the client signs it inside a message whose
// every line is fixed by the signature, and the verify body is the upstream's, so nothing the client
// returns can carry a seal that it could not simply leave out. The binding is therefore state, kept
// as long as the nonce lives: in this process (one instance), or in Redis shared by the fleet
// (auth/redis-nonce-bindings.ts), since a challenge answered by one instance may be verified by another.
import { LRUCache } from 'lru-cache'
import type { Clock } from '../clock.js'

export interface NonceBindings {
  /** Remembers that `nonce` was issued for `address`, for `ttlMs`. */
  bind(nonce: string, address: string, ttlMs: number): Promise<void>
  /** The address `nonce` was issued for; undefined when it was issued for none, or is forgotten. */
  addressFor(nonce: string): Promise<string | undefined>
}

/** Challenges remembered: each about two hundred bytes, issued at most at the auth rate limit. */
const MAX_REMEMBERED = 100_000

export class MemoryNonceBindings implements NonceBindings {
  private readonly bound: LRUCache<string, string>

  constructor(clock: Clock) {
    this.bound = new LRUCache<string, string>({
      max: MAX_REMEMBERED,
      // No timers inside lru-cache, and its time is our injected clock.
      ttlResolution: 0,
      perf: { now: () => clock.now() },
    })
  }

  async bind(nonce: string, address: string, ttlMs: number): Promise<void> {
    this.bound.set(nonce, address, { ttl: ttlMs })
  }

  async addressFor(nonce: string): Promise<string | undefined> {
    return this.bound.get(nonce)
  }
}
