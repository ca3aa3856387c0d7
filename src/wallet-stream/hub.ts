// The wallet hub: every wallet stream of this process, grouped by user. A group listens to its user's
// log (log.ts) while it has streams, and on each wake-up reads the entries after the oldest one its
// streams have, so every stream gets each entry once, in the log's order, whichever instance appended
// it. A stream ends when its session does: at the moment the session lapses (a timer of its own), or
// at the first heartbeat after a logout on any instance. Its streams are held in the SSE registry
// (sse/registry.ts) with the others: the same limits, heartbeat, ends and shutdown.
import type { ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, Timer } from '../clock.js'
import type { SseRegistry, StreamClient, StreamGroup, StreamSource } from '../sse/registry.js'
import { commentFrame, eventFrame } from '../sse/frames.js'
import { isAfter, type LoggedEntry, type WalletLog } from './log.js'

/** What a wallet stream needs of its session: the auth capability answers it. */
export interface StreamSession {
  /** Whose orders the stream carries: the upstream user id order events name. */
  user: string
  /** Clock time at which the session lapses. */
  lapsesAt: number
  /** False once the session has been logged out, on any instance. */
  stillOpen(): Promise<boolean>
}

export interface WalletClient extends StreamClient {
  readonly session: StreamSession
  /** The id of the last log entry this stream has (`0-0`: none yet); events after it are sent. */
  lastId: string
  /** False until the stream's first event is sent: a wake-up before then sends it nothing. */
  live: boolean
  lapse: Timer | undefined
}

export interface WalletHubOptions {
  clock: Clock
  log: FastifyBaseLogger
  streams: SseRegistry
  events: WalletLog
}

/** The last frame of a stream whose session ended: the client signs in again, then reopens. */
const SESSION_ENDED = commentFrame('session ended; sign in again')
/** setTimeout's longest delay; sessions lapse long before it. */
const MAX_DELAY = 2 ** 31 - 1

class UserGroup implements StreamGroup {
  readonly clients = new Set<WalletClient>()
  /** Resolves to the way to stop listening, once listening. */
  stop: Promise<() => void> | undefined
  reading = false
  again = false

  constructor(
    readonly user: string,
    private readonly clock: Clock,
    private readonly left: (group: UserGroup) => void,
  ) {}

  leave(client: StreamClient): void {
    const wallet = client as WalletClient
    this.clock.clearTimeout(wallet.lapse)
    this.clients.delete(wallet)
    client.group = undefined
    if (this.clients.size === 0) this.left(this)
  }
}

export class WalletHub implements StreamSource {
  private readonly users = new Map<string, UserGroup>()

  constructor(private readonly opts: WalletHubOptions) {
    opts.streams.register(this)
  }

  get logAvailable(): boolean {
    return this.opts.events.available
  }

  /** The id of the newest entry of the client's user ('' when none is kept). */
  latest(client: WalletClient): Promise<string> {
    return this.opts.events.latest(client.session.user)
  }

  /** The entries after a reconnect's Last-Event-ID, or undefined when it cannot be resumed from. */
  since(client: WalletClient, lastEventId: string): Promise<LoggedEntry[] | undefined> {
    return this.opts.events.since(client.session.user, lastEventId)
  }

  /** Joins the client to its user's group, which listens to the user's log before this resolves. */
  async join(client: WalletClient): Promise<void> {
    const { user } = client.session
    let group = this.users.get(user)
    if (!group) {
      group = new UserGroup(user, this.opts.clock, (g) => this.left(g))
      this.users.set(user, group)
      group.stop = this.opts.events.listen(user, () => void this.read(group!))
    }
    client.group = group
    group.clients.add(client)
    await group.stop
  }

  /**
   * Takes over a response whose headers are written: the `retry:` advice and the opening (a snapshot,
   * or the entries a reconnect missed), then whatever the log gained meanwhile.
   */
  attach(client: WalletClient, res: ServerResponse, opening: Buffer, lastId: string): void {
    const { streams, clock } = this.opts
    if (!streams.attach(client, res)) return
    const first = Buffer.concat([Buffer.from(`retry: ${streams.retryAdvice()}\n`), opening])
    if (streams.draining) return streams.farewell(client, first)
    streams.deliver(client, first)
    client.lastId = lastId
    client.live = true
    const delay = Math.min(MAX_DELAY, Math.max(0, client.session.lapsesAt - clock.now()))
    client.lapse = clock.setTimeout(() => this.end(client), delay)
    if (client.group) void this.read(client.group as UserGroup)
  }

  groups(): Iterable<StreamGroup> {
    return this.users.values()
  }

  /** On every heartbeat: the streams whose session was logged out (on any instance) end. */
  beat(): void {
    for (const group of this.users.values()) {
      for (const client of group.clients) {
        if (!client.live) continue
        client.session.stillOpen().then(
          (open) => open || this.end(client),
          () => {},
        )
      }
    }
  }

  close(): void {
    for (const group of [...this.users.values()]) for (const client of [...group.clients]) group.leave(client)
  }

  /** The frame of a log entry: its SSE id is its place in the log. */
  static frameOf(entry: LoggedEntry): Buffer {
    return eventFrame({ event: entry.event, id: entry.id, data: entry.data })
  }

  private end(client: WalletClient): void {
    if (client.group) this.opts.streams.finish(client, SESSION_ENDED, false)
  }

  private left(group: UserGroup): void {
    if (this.users.get(group.user) === group) this.users.delete(group.user)
    void group.stop?.then((stop) => stop())
  }

  /** Sends each live stream of the group the entries after its last; one read at a time per group. */
  private async read(group: UserGroup): Promise<void> {
    if (group.reading) {
      group.again = true
      return
    }
    group.reading = true
    try {
      do {
        group.again = false
        const live = [...group.clients].filter((c) => c.live)
        if (live.length === 0) break
        const from = live.reduce((min, c) => (isAfter(min, c.lastId) ? c.lastId : min), live[0]!.lastId)
        const entries = await this.opts.events.after(group.user, from)
        for (const entry of entries) {
          const frame = WalletHub.frameOf(entry)
          for (const client of live) {
            if (!client.live || !isAfter(entry.id, client.lastId)) continue
            this.opts.streams.deliver(client, frame)
            client.lastId = entry.id
          }
        }
      } while (group.again)
    } catch (err) {
      this.opts.log.warn({ err }, 'wallet events could not be read; the next wake-up reads them')
    } finally {
      group.reading = false
    }
  }
}
