// The users' logs shared by every instance through Redis (REDIS_URL): a Redis Stream per user, trimmed
// to WALLET_EVENTS_RETAIN_MS on each append and expiring that long after its last one, and a pub/sub
// channel per user that wakes the instances holding a stream of that user, which then read the new
// entries from the log (in its order, whichever instance appended them). Redis is a helper with a
// deadline (docs/operations.md): while it is known down the streams start afresh without the log,
// appends wait in this process and are written when Redis answers again, and every listener is woken
// then to read what it missed.
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import type { Clock } from '../clock.js'
import type { RedisLink } from '../redis/plugin.js'
import type { WalletEntry } from './events.js'
import { type LoggedEntry, type WalletLog, withinRetention } from './log.js'

export interface RedisWalletLogOptions {
  clock: Clock
  retainMs: number
  /** Its key space (redis/stores.ts). */
  prefix: string
  log: FastifyBaseLogger
}

/**
 * Once per event id (a repeat of the same order event is ignored), an entry whose id is this
 * instance's clock time (never below the newest entry's), the older entries trimmed, then the wake-up.
 * KEYS: the log, the event id's mark. ARGV: now, oldest kept, retention, event, data, channel.
 */
const APPEND = `
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[3]) then return false end
local ms = tonumber(ARGV[1])
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if top then ms = math.max(ms, tonumber(string.match(top[1], '^(%d+)'))) end
local id = redis.call('XADD', KEYS[1], 'MINID', ARGV[2], ms .. '-*', 'e', ARGV[4], 'd', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[6], id)
return id
`

type Appending = Redis & { walletAppend(...args: Array<string | number>): Promise<string | null> }
type StreamReply = Array<[string, string[]]>

/** Appends waiting for Redis: each an order event, as many as a busy hour's outage brings. */
const MAX_UNWRITTEN = 10_000

export class RedisWalletLog implements WalletLog {
  private readonly client: Appending
  /** The connection in subscriber mode, its own (a subscribed connection runs no other command). */
  private readonly subscriber: Redis
  private readonly listeners = new Map<string, Set<() => void>>()
  private readonly unwritten: Array<[string, string, WalletEntry]> = []

  constructor(
    private readonly link: RedisLink,
    private readonly opts: RedisWalletLogOptions,
  ) {
    this.client = link.client as Appending
    this.client.defineCommand('walletAppend', { numberOfKeys: 2, lua: APPEND })
    this.subscriber = link.client.duplicate({ autoResubscribe: false })
    // The link reports the outage; a subscriber that reconnects subscribes again and wakes everyone.
    this.subscriber.on('error', () => {})
    this.subscriber.on('ready', () => void this.resubscribe())
    this.subscriber.on('message', (channel: string) => {
      for (const wake of this.listeners.get(channel) ?? []) wake()
    })
    link.onRecovery(() => this.writeBack())
  }

  get available(): boolean {
    return this.link.up
  }

  async append(user: string, eventId: string, entry: WalletEntry): Promise<void> {
    try {
      await this.write(user, eventId, entry)
    } catch (err) {
      this.opts.log.warn({ err }, 'wallet event kept until redis answers again')
      if (this.unwritten.length >= MAX_UNWRITTEN) this.unwritten.shift()
      this.unwritten.push([user, eventId, entry])
    }
  }

  async latest(user: string): Promise<string> {
    const top = (await this.client.xrevrange(this.key(user), '+', '-', 'COUNT', 1)) as StreamReply
    return top[0]?.[0] ?? ''
  }

  async since(user: string, id: string): Promise<LoggedEntry[] | undefined> {
    if (!withinRetention(id, this.opts.clock.now(), this.opts.retainMs)) return undefined
    const found = (await this.client.xrange(this.key(user), id, id)) as StreamReply
    return found.length === 0 ? undefined : this.after(user, id)
  }

  async after(user: string, id: string): Promise<LoggedEntry[]> {
    const entries = (await this.client.xrange(this.key(user), `(${id}`, '+')) as StreamReply
    return entries.map(([entryId, fields]) => ({ id: entryId, event: fields[1]!, data: fields[3]! }))
  }

  async listen(user: string, wake: () => void): Promise<() => void> {
    const channel = this.channel(user)
    let set = this.listeners.get(channel)
    if (!set) {
      this.listeners.set(channel, (set = new Set()))
      // Down now: the reconnect's resubscribe covers it.
      await this.subscriber.subscribe(channel).catch(() => {})
    }
    set.add(wake)
    return () => {
      set.delete(wake)
      if (set.size > 0 || this.listeners.get(channel) !== set) return
      this.listeners.delete(channel)
      this.subscriber.unsubscribe(channel).catch(() => {})
    }
  }

  async close(): Promise<void> {
    this.subscriber.disconnect()
  }

  private async write(user: string, eventId: string, entry: WalletEntry): Promise<void> {
    const { clock, retainMs, prefix } = this.opts
    const now = clock.now()
    await this.client.walletAppend(
      this.key(user),
      `${prefix}seen:${eventId}`,
      now,
      Math.max(0, now - retainMs),
      retainMs,
      entry.event,
      entry.data,
      this.channel(user),
    )
  }

  /** Sends the outage's appends, in the order they came; one that fails again stays for the next recovery. */
  private async writeBack(): Promise<void> {
    while (this.unwritten.length > 0) {
      await this.write(...this.unwritten[0]!)
      this.unwritten.shift()
    }
  }

  private async resubscribe(): Promise<void> {
    const channels = [...this.listeners.keys()]
    if (channels.length > 0) await this.subscriber.subscribe(...channels).catch(() => {})
    for (const set of this.listeners.values()) for (const wake of set) wake()
  }

  private key(user: string): string {
    return `${this.opts.prefix}log:${user}`
  }

  private channel(user: string): string {
    return `${this.opts.prefix}live:${user}`
  }
}
