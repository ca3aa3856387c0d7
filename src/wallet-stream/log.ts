// Each signed-in user's log of order events, kept WALLET_EVENTS_RETAIN_MS for reconnects: the wallet
// streams of every instance read it, so an event found anywhere reaches the user's streams everywhere,
// and a reconnect's Last-Event-ID names where in the log its stream was. In the process's memory (one
// instance) unless Redis is configured (wallet-stream/redis-log.ts). Ids are `<ms>-<seq>`, as Redis
// Stream ids are: ordered, and telling how old an entry is.
import { LRUCache } from 'lru-cache'
import type { Clock } from '../clock.js'
import type { WalletEntry } from './events.js'

export interface LoggedEntry extends WalletEntry {
  id: string
}

export interface WalletLog {
  /** False while the log cannot be read at once (Redis known down): a stream then starts afresh. */
  readonly available: boolean
  /** Adds an order event to its user's log, once per event id, and wakes that user's listeners. */
  append(user: string, eventId: string, entry: WalletEntry): Promise<void>
  /** The id of the user's newest entry, '' when none is kept. */
  latest(user: string): Promise<string>
  /**
   * The entries after `id`, oldest first; undefined unless `id` is a kept entry of the user's that
   * happened within the retention (older, unknown, or lost with the store: the caller starts afresh).
   */
  since(user: string, id: string): Promise<LoggedEntry[] | undefined>
  /** The entries after an id this instance has delivered, oldest first. */
  after(user: string, id: string): Promise<LoggedEntry[]>
  /** Calls `wake` when the user's log may have grown (also after an outage); returns the way to stop. */
  listen(user: string, wake: () => void): Promise<() => void>
  close(): Promise<void>
}

const ID = /^(\d{1,15})-(\d{1,15})$/

/** The id's parts, or undefined for an id this log never gives. */
export function parseId(id: string): [number, number] | undefined {
  const m = ID.exec(id)
  return m ? [Number(m[1]), Number(m[2])] : undefined
}

/** Whether `a` comes after `b` in a log. */
export function isAfter(a: string, b: string): boolean {
  const [am, as] = parseId(a) ?? [0, 0]
  const [bm, bs] = parseId(b) ?? [0, 0]
  return am > bm || (am === bm && as > bs)
}

/** Whether an id names a moment still within the retention. */
export const withinRetention = (id: string, now: number, retainMs: number) => {
  const parsed = parseId(id)
  return parsed !== undefined && parsed[0] >= now - retainMs
}

interface UserLog {
  entries: Array<LoggedEntry & { eventId: string }>
  /** The order event ids of the entries kept. */
  seen: Set<string>
}

/** Users whose logs are kept in memory: each a few kilobytes for an hour of events. */
const MAX_USERS = 100_000

export class MemoryWalletLog implements WalletLog {
  readonly available = true
  private readonly logs: LRUCache<string, UserLog>
  private readonly listeners = new Map<string, Set<() => void>>()

  constructor(
    private readonly clock: Clock,
    private readonly retainMs: number,
  ) {
    // A user's log lives the retention after its last event; lru-cache's time is our clock.
    this.logs = new LRUCache<string, UserLog>({
      max: MAX_USERS,
      ttl: retainMs,
      ttlResolution: 0,
      perf: { now: () => clock.now() },
    })
  }

  async append(user: string, eventId: string, entry: WalletEntry): Promise<void> {
    const log = this.logs.get(user) ?? { entries: [], seen: new Set<string>() }
    this.trim(log)
    if (log.seen.has(eventId)) return
    const last = parseId(log.entries.at(-1)?.id ?? '')
    const now = this.clock.now()
    const id = last && last[0] >= now ? `${last[0]}-${last[1] + 1}` : `${now}-0`
    log.entries.push({ id, ...entry, eventId })
    log.seen.add(eventId)
    this.logs.set(user, log)
    for (const wake of this.listeners.get(user) ?? []) wake()
  }

  async latest(user: string): Promise<string> {
    return this.kept(user).at(-1)?.id ?? ''
  }

  async since(user: string, id: string): Promise<LoggedEntry[] | undefined> {
    const entries = this.kept(user)
    if (!withinRetention(id, this.clock.now(), this.retainMs)) return undefined
    const at = entries.findIndex((e) => e.id === id)
    return at === -1 ? undefined : entries.slice(at + 1)
  }

  async after(user: string, id: string): Promise<LoggedEntry[]> {
    return this.kept(user).filter((e) => isAfter(e.id, id))
  }

  async listen(user: string, wake: () => void): Promise<() => void> {
    let set = this.listeners.get(user)
    if (!set) this.listeners.set(user, (set = new Set()))
    set.add(wake)
    return () => {
      set.delete(wake)
      if (set.size === 0) this.listeners.delete(user)
    }
  }

  async close(): Promise<void> {}

  private kept(user: string): LoggedEntry[] {
    const log = this.logs.get(user)
    if (!log) return []
    this.trim(log)
    return log.entries
  }

  /** Drops the entries older than the retention (their event ids with them). */
  private trim(log: UserLog): void {
    const oldest = this.clock.now() - this.retainMs
    let drop = 0
    while (drop < log.entries.length && parseId(log.entries[drop]!.id)![0] < oldest) drop++
    for (const gone of log.entries.splice(0, drop)) log.seen.delete(gone.eventId)
  }
}
