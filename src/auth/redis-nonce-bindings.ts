// Nonce bindings shared by every instance through Redis (REDIS_URL): a key per nonce holding the
// address, expiring with the nonce. Redis is a helper, never a dependency: this instance's own
// bindings are kept in its memory too and asked first, and a Redis that fails leaves only the
// bindings made elsewhere unseen (sign-in goes on; the upstream still consumes each nonce once).
import type { RedisLink } from '../redis/plugin.js'
import type { NonceBindings } from './nonce-bindings.js'

export class RedisNonceBindings implements NonceBindings {
  constructor(
    private readonly link: RedisLink,
    /** This instance's bindings, answered even while Redis is away. */
    private readonly local: NonceBindings,
    /** Its key space (redis/stores.ts). */
    private readonly prefix: string,
  ) {}

  async bind(nonce: string, address: string, ttlMs: number): Promise<void> {
    await this.local.bind(nonce, address, ttlMs)
    try {
      await this.link.client.set(this.prefix + nonce, address, 'PX', ttlMs)
    } catch {
      // The Redis link reports the outage (log line, metric, /readyz); this instance still knows.
    }
  }

  async addressFor(nonce: string): Promise<string | undefined> {
    const here = await this.local.addressFor(nonce)
    if (here !== undefined) return here
    try {
      return (await this.link.client.get(this.prefix + nonce)) ?? undefined
    } catch {
      return undefined
    }
  }
}
