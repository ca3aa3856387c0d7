// Push subscriptions shared by the fleet (REDIS_URL): a hash per order (`order:<uuid>`, subscription
// id → endpoint and keys) and one sorted set (`until`) of every subscription by the time it lapses,
// which the count sweeps. Saving is one script, so two instances cannot both add the sixth.
import type { Clock } from '../clock.js'
import type { RedisLink } from '../redis/plugin.js'
import {
  type PushSubscriptions,
  type PushTarget,
  RETAIN_MS,
  type StoredSubscription,
  subscriptionIdOf,
} from './subscriptions.js'

// KEYS: the order's hash, the sorted set. ARGV: id, value, max, until, member, hash ttl (ms).
const SAVE = `
local known = redis.call('HEXISTS', KEYS[1], ARGV[1])
if known == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
return 1`

// KEYS: the sorted set. ARGV: now, the hash key prefix. Drops what lapsed, then counts the rest.
const COUNT = `
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1000)
for _, member in ipairs(lapsed) do
  local at = string.find(member, ' ', 1, true)
  redis.call('HDEL', ARGV[2] .. string.sub(member, 1, at - 1), string.sub(member, at + 1))
  redis.call('ZREM', KEYS[1], member)
end
return redis.call('ZCARD', KEYS[1])`

export class RedisSubscriptions implements PushSubscriptions {
  private readonly orders: string
  private readonly until: string

  constructor(
    private readonly link: RedisLink,
    private readonly clock: Clock,
    prefix: string,
  ) {
    this.orders = `${prefix}order:`
    this.until = `${prefix}until`
  }

  async save(orderId: string, target: PushTarget, maxPerOrder: number): Promise<'saved' | 'full'> {
    const id = subscriptionIdOf(target.endpoint)
    const value = JSON.stringify({ endpoint: target.endpoint, keys: target.keys })
    const saved = await this.link.client.eval(
      SAVE,
      2,
      this.orders + orderId,
      this.until,
      id,
      value,
      maxPerOrder,
      this.clock.now() + RETAIN_MS,
      `${orderId} ${id}`,
      RETAIN_MS,
    )
    return saved === 1 ? 'saved' : 'full'
  }

  async list(orderId: string): Promise<StoredSubscription[]> {
    const held = await this.link.client.hgetall(this.orders + orderId)
    return Object.entries(held).map(([id, value]) => ({ id, ...(JSON.parse(value) as PushTarget) }))
  }

  async get(orderId: string, id: string): Promise<StoredSubscription | undefined> {
    const value = await this.link.client.hget(this.orders + orderId, id)
    return value === null ? undefined : { id, ...(JSON.parse(value) as PushTarget) }
  }

  async remove(orderId: string, id: string): Promise<void> {
    await this.link.client
      .multi()
      .hdel(this.orders + orderId, id)
      .zrem(this.until, `${orderId} ${id}`)
      .exec()
  }

  async count(): Promise<number> {
    return Number(await this.link.client.eval(COUNT, 1, this.until, this.clock.now(), this.orders))
  }
}
