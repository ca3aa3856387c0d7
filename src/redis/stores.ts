// Where state shared by the instances lives: in this process, or in Redis when REDIS_URL is set. A
// store is created through `app.stores.create`, the one place that chooses between the two; every
// key space is named here, so no two stores collide and an operator can find each in Redis.
import type { RedisLink } from './plugin.js'

export const KEY_SPACES = {
  /** Rate-limit counters, by group and client, and the per-IP ceilings. */
  rateLimits: 'swap-gateway:ratelimit:',
  /** The call budget (UPSTREAM_MAX_RPS) and the pause after a 429, per tenant key fingerprint. */
  upstream: 'swap-gateway:upstream:',
  /** Logouts: a key per ended session, expiring with it. */
  revocations: 'swap-gateway:revoked:',
  /** Idempotency-Key records. */
  idempotency: 'swap-gateway:idempotency:',
  /** The address each sign-in nonce was issued for, expiring with the nonce. */
  nonces: 'swap-gateway:nonce:',
  /** Order events on their way to webhook URLs and push endpoints, per channel (deliveries/redis-scripts.ts). */
  deliveries: 'swap-gateway:deliveries:',
  /** Web Push subscriptions: a hash per order and the index of when each lapses. */
  push: 'swap-gateway:push:',
} as const
export type KeySpace = keyof typeof KEY_SPACES

/** How to make a store of each kind; the Redis one gets its key space's prefix. */
export interface StoreChoice<T> {
  memory(): T
  redis(link: RedisLink, prefix: string): T
}

export interface Stores {
  create<T>(space: KeySpace, choice: StoreChoice<T>): T
}

declare module 'fastify' {
  interface FastifyInstance {
    stores: Stores
  }
}

export const storesOn = (link: RedisLink | undefined): Stores => ({
  create: (space, choice) => (link ? choice.redis(link, KEY_SPACES[space]) : choice.memory()),
})
