// The catalog cache (docs/catalog.md). One copy lives in an lru-cache with a TTL. A read past the TTL
// gets the old copy (STALE) while one background load runs; concurrent reads with nothing to serve
// share one upstream call (lru-cache's fetch); a failed load keeps the last good copy, which stays
// servable until it is maxStaleMs past its TTL. A timer reloads the copy when its TTL runs out, or
// after a failure with backoff, so the copy stays fresh and readiness recovers without traffic.
import type { FastifyBaseLogger } from 'fastify'
import { LRUCache } from 'lru-cache'
import type { Clock, Timer } from '../clock.js'
import { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import { backoffDelay } from '../upstream/backoff.js'
import type { WorkCounters } from './representation.js'
import { buildVersion, type CatalogVersion } from './version.js'

export type CacheStatus = 'HIT' | 'MISS' | 'STALE'

export interface CatalogRead {
  version: CatalogVersion
  status: CacheStatus
}

/** Who asked for a load (a request, as it is): its id and logger follow the upstream call. */
export type LoadTrigger = { readonly id: string; readonly log: FastifyBaseLogger } | undefined

export interface CatalogTuning {
  /** At most one forced refresh (for a token id the copy lacks) per this interval. */
  forcedRefreshIntervalMs: number
  /** Delay before the first reload after a failed load; it doubles per failure (with jitter) up to the cap. */
  retryBaseMs: number
  retryCapMs: number
  /** How long start-up waits for the first load before the gateway starts serving anyway. */
  startupWaitMs: number
}

export const DEFAULT_CATALOG_TUNING: CatalogTuning = {
  forcedRefreshIntervalMs: 30_000,
  retryBaseMs: 1_000,
  retryCapMs: 60_000,
  startupWaitMs: 3_000,
}

export interface CatalogCacheOptions {
  clock: Clock
  ttlMs: number
  maxStaleMs: number
  tuning: CatalogTuning
  log: FastifyBaseLogger
  /** The upstream catalog's bytes, already checked against its schema. */
  fetch: (trigger: LoadTrigger) => Promise<Buffer>
  /** The upstream client's breaker: undefined while calls flow, else ms until it lets a probe through. */
  upstreamPausedForMs?: () => number | undefined
  random: () => number
}

/** Plain numbers for the metrics collector. `ageMs` is NaN while there is no copy. */
export interface CatalogStats extends WorkCounters {
  hits: number
  misses: number
  staleServed: number
  refreshes: number
  refreshFailures: number
  forcedRefreshes: number
  /** Loads under way (at most one: lru-cache shares a load in flight). */
  loading: number
  ageMs: number
  tokens: number
}

const KEY = 'catalog'
/** setTimeout's largest delay; longer TTLs are reloaded on reads instead. */
const MAX_TIMER_MS = 2 ** 31 - 1

export class CatalogCache {
  readonly work: WorkCounters = { compressions: 0, serializations: 0 }
  private readonly counts = {
    hits: 0,
    misses: 0,
    staleServed: 0,
    refreshes: 0,
    refreshFailures: 0,
    forcedRefreshes: 0,
    loading: 0,
  }
  private readonly copies: LRUCache<typeof KEY, CatalogVersion, LoadTrigger>
  private failures = 0
  /** Clock time before which a stale read does not start another load (backoff after a failure). */
  private retryAt = 0
  private lastForcedAt = Number.NEGATIVE_INFINITY
  private timer: Timer | undefined
  private closed = false

  constructor(private readonly options: CatalogCacheOptions) {
    this.copies = new LRUCache<typeof KEY, CatalogVersion, LoadTrigger>({
      max: 1,
      ttl: options.ttlMs,
      // No timers inside lru-cache, and its time is our injected clock.
      ttlResolution: 0,
      perf: { now: () => options.clock.now() },
      allowStale: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (_key, previous, { context }) => this.load(previous, context),
    })
  }

  /** The copy while it is fresh (a HIT), without a promise or a turn: nearly every read. */
  fresh(): CatalogRead | undefined {
    const held = this.copies.peek(KEY)
    // lru-cache calls an entry stale only once its remaining TTL is below zero.
    if (!held || this.copies.getRemainingTTL(KEY) < 0) return undefined
    this.counts.hits += 1
    return { version: held, status: 'HIT' }
  }

  async read(trigger: LoadTrigger): Promise<CatalogRead> {
    const fresh = this.fresh()
    if (fresh) return fresh
    const held = this.copies.peek(KEY)
    if (held && this.servable(held)) {
      this.counts.staleServed += 1
      // Returns the held copy at once; the load (if one starts) replaces it when it lands.
      if (this.options.clock.now() >= this.retryAt) void this.copies.fetch(KEY, { context: trigger })
      return { version: held, status: 'STALE' }
    }
    this.counts.misses += 1
    return { version: await this.loadNow(trigger, false), status: 'MISS' }
  }

  /**
   * A fresh copy for a token id the held copy lacks: a token listed upstream since the last load must
   * not be refused. At most one per interval, so unknown ids cannot make the gateway hammer the
   * upstream; undefined when the interval has not passed or the load failed.
   */
  async refreshForUnknownId(trigger: LoadTrigger): Promise<CatalogVersion | undefined> {
    const now = this.options.clock.now()
    if (now - this.lastForcedAt < this.options.tuning.forcedRefreshIntervalMs) return undefined
    this.lastForcedAt = now
    this.counts.forcedRefreshes += 1
    try {
      return await this.loadNow(trigger, true)
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err
      return undefined
    }
  }

  /** The start-up load. Never fails: without a copy the gateway serves 503 and the timer keeps trying. */
  async start(): Promise<void> {
    // On the process's timers: the start is bounded in real time, whatever a test does with the clock.
    let waited: NodeJS.Timeout | undefined
    await Promise.race([
      this.loadNow(undefined, false).catch(() => undefined),
      new Promise<void>((resolve) => {
        waited = setTimeout(resolve, this.options.tuning.startupWaitMs)
      }),
    ])
    clearTimeout(waited)
  }

  close(): void {
    this.closed = true
    this.options.clock.clearTimeout(this.timer)
  }

  /** Whether a copy has been loaded (servable or not). */
  held(): boolean {
    return this.copies.peek(KEY) !== undefined
  }

  /** Undefined when a servable copy is held, else why not (for /readyz). */
  readiness(): string | undefined {
    const held = this.copies.peek(KEY)
    if (!held) return 'the token catalog has not been loaded'
    if (!this.servable(held)) return 'the token catalog is older than its maximum stale age'
    return undefined
  }

  stats(): CatalogStats {
    const held = this.copies.peek(KEY)
    return {
      ...this.counts,
      ...this.work,
      ageMs: held ? this.options.clock.now() - held.loadedAt : Number.NaN,
      tokens: held?.tokens.length ?? 0,
    }
  }

  private servable(version: CatalogVersion): boolean {
    return this.options.clock.now() - version.loadedAt <= this.options.ttlMs + this.options.maxStaleMs
  }

  /** Waits for a load (joining one in flight). With nothing to serve, every failure is UPSTREAM_UNAVAILABLE. */
  private async loadNow(trigger: LoadTrigger, forceRefresh: boolean): Promise<CatalogVersion> {
    let version: CatalogVersion | undefined
    try {
      version = await this.copies.fetch(KEY, { context: trigger, allowStale: false, forceRefresh })
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err
      throw problems.catalogUnavailable(err)
    }
    if (!version) throw problems.catalogLoadAbandoned()
    return version
  }

  private async load(previous: CatalogVersion | undefined, trigger: LoadTrigger): Promise<CatalogVersion> {
    const { clock, log } = this.options
    this.counts.loading += 1
    try {
      const raw = await this.options.fetch(trigger)
      const version = await buildVersion(raw, clock.now(), this.work, previous)
      this.counts.refreshes += 1
      this.failures = 0
      this.retryAt = 0
      this.schedule(this.options.ttlMs)
      return version
    } catch (err) {
      this.counts.refreshFailures += 1
      const delay = this.retryDelay()
      this.retryAt = clock.now() + delay
      this.schedule(delay)
      const code = err instanceof GatewayError ? err.code : 'INTERNAL'
      log.warn({ catalog: { failures: this.failures, code, retryInMs: delay } }, 'catalog load failed')
      throw err
    } finally {
      this.counts.loading -= 1
    }
  }

  /**
   * While the breaker holds calls back (open, or its probe out), the next try is when it lets a probe
   * through: counting its refusals as failures backed the catalog off for up to a minute after the
   * upstream was back. Failures with the breaker closed back off exponentially.
   */
  private retryDelay(): number {
    const { tuning } = this.options
    const paused = this.options.upstreamPausedForMs?.()
    if (paused !== undefined) return Math.max(paused, tuning.retryBaseMs)
    this.failures += 1
    return (
      tuning.retryBaseMs +
      backoffDelay(this.failures - 1, tuning.retryBaseMs, tuning.retryCapMs, this.options.random)
    )
  }

  /** One timer at a time: the next reload, whatever caused the last one. */
  private schedule(delayMs: number): void {
    const { clock } = this.options
    clock.clearTimeout(this.timer)
    if (this.closed || delayMs > MAX_TIMER_MS) return
    this.timer = clock.setTimeout(() => {
      this.timer = undefined
      // allowStale: a failure here keeps the held copy and schedules the next try, and rejects no one.
      this.copies.fetch(KEY, { context: undefined, forceRefresh: true }).catch(() => undefined)
    }, delayMs)
    this.timer.unref()
  }
}
