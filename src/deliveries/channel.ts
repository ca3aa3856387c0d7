// One channel's worker: it claims the due deliveries (queue heads only, so one order's events reach a
// target in order), sends them, and records each result. It looks when it starts, every `pollMs` of
// the app's clock, and again as soon as an attempt settles or a look came back full, up to
// `maxInFlight` attempts at once: throughput follows the receivers, not the poll. Nothing waits on it:
// the poll's timer is unref'd, and `stop` ends it and waits for the attempts in flight.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, Timer } from '../clock.js'
import {
  type DeliveryRecord,
  type DeliveryStore,
  deliveryOf,
  LIST_LIMIT,
  newRecord,
  recordId,
  type Settlement,
  viewOf,
} from './record.js'
import { nextDelay } from './schedule.js'
import type {
  AttemptOutcome,
  ChannelOptions,
  ChannelStats,
  DeliveryChannel,
  DeliveryOutcome,
  DeliveryRequest,
  DeliveryView,
} from './types.js'

export interface DeliveryTuning {
  /** How often each instance looks for due deliveries. */
  pollMs: number
  /** Deliveries claimed per look at most. */
  batch: number
  /** Attempts of this instance in flight at most: slow receivers cannot hold an unbounded number. */
  maxInFlight: number
}

export const DEFAULT_TUNING: DeliveryTuning = { pollMs: 1_000, batch: 32, maxInFlight: 256 }
const DEFAULT_LEASE_MS = 60_000

export interface WorkerDeps {
  clock: Clock
  random: () => number
  log: FastifyBaseLogger
  tuning: DeliveryTuning
}

export class ChannelWorker implements DeliveryChannel {
  private timer: Timer | undefined
  private looking = false
  /** A look was asked for (the poll, a settled attempt, a retry by hand): claim once more. */
  private again = false
  /** The poll asked: the figures `stats` gives are read again when the look ends. */
  private polled = false
  /** Told when the look in progress ends. */
  private lookEnds: (() => void)[] = []
  private readonly inFlight = new Set<Promise<void>>()
  private latest: ChannelStats = { pending: 0, oldestPendingAt: undefined }

  constructor(
    private readonly store: DeliveryStore,
    private readonly options: ChannelOptions,
    private readonly deps: WorkerDeps,
  ) {}

  async enqueue(request: DeliveryRequest): Promise<void> {
    await this.store.add(newRecord(request, this.deps.clock.now()))
  }

  async list(state: 'pending' | 'failed'): Promise<DeliveryView[]> {
    return (await this.store.list(state, LIST_LIMIT)).map(viewOf)
  }

  async retry(eventId: string, target: string): Promise<boolean> {
    const requeued = await this.store.requeue(recordId(eventId, target), this.deps.clock.now())
    // Sent at once, not at the next poll.
    if (requeued) this.look()
    return requeued
  }

  stats(): ChannelStats {
    return this.latest
  }

  start(): void {
    // Only a wake-up: what is due is read from the clock, so a test moving it drives the poll too.
    this.timer = this.deps.clock.setInterval(() => this.look(true), this.deps.tuning.pollMs)
    this.timer.unref()
    this.look(true)
  }

  async stop(): Promise<void> {
    this.deps.clock.clearInterval(this.timer)
    this.timer = undefined
    // A look in progress may still start the attempts of what it claimed: those are waited for too.
    if (this.looking) await this.lookEnded()
    await Promise.allSettled([...this.inFlight])
  }

  /**
   * Looks for due deliveries (as the poll does) and resolves once that look has ended and every
   * attempt since has settled, the looks they asked for included: until the clock moves or a
   * delivery is handed on, nothing more is due. `stats` then gives figures read after the last
   * attempt settled: a look that found nothing in flight ends it.
   */
  async idle(): Promise<void> {
    if (this.timer === undefined) return
    for (;;) {
      const ended = this.lookEnded()
      this.look(true)
      await ended
      // Nothing in flight once the look ended: its figures were read after the last attempt settled.
      if (!this.looking && this.inFlight.size === 0) return
      while (this.looking || this.inFlight.size > 0) {
        await Promise.allSettled([...this.inFlight])
        if (this.looking) await this.lookEnded()
      }
    }
  }

  /** Asks for a look: one starts, or the one in progress claims once more before it ends. */
  private look(polled = false): void {
    if (this.timer === undefined) return
    this.again = true
    this.polled ||= polled
    if (!this.looking) void this.lookWhileAsked()
  }

  private lookEnded(): Promise<void> {
    return new Promise((resolve) => this.lookEnds.push(resolve))
  }

  private async lookWhileAsked(): Promise<void> {
    this.looking = true
    try {
      while (this.again && this.timer !== undefined) {
        this.again = false
        // A full claim may have left more due.
        if (await this.claimDue()) this.again = true
        else if (this.polled && !this.again) {
          this.polled = false
          this.latest = await this.store.stats()
        }
      }
    } catch (err) {
      this.deps.log.warn({ err, channel: this.options.name }, 'deliveries could not be read; trying again')
    } finally {
      this.looking = false
      for (const ended of this.lookEnds.splice(0)) ended()
    }
  }

  /** Claims what is due, room allowing, and starts its attempts; true when the claim came back full. */
  private async claimDue(): Promise<boolean> {
    const { batch, maxInFlight } = this.deps.tuning
    const limit = Math.min(batch, maxInFlight - this.inFlight.size)
    // At the cap: each attempt that settles asks for the next look.
    if (limit <= 0) return false
    const now = this.deps.clock.now()
    const leaseUntil = now + (this.options.leaseMs ?? DEFAULT_LEASE_MS)
    const claimed = await this.store.claim(now, leaseUntil, limit)
    for (const record of claimed) {
      const attempt = this.attempt(record).finally(() => {
        this.inFlight.delete(attempt)
        // The order's next event may be due now, and a place is free.
        this.look()
      })
      this.inFlight.add(attempt)
    }
    return claimed.length === limit
  }

  private async attempt(record: DeliveryRecord) {
    const delivery = deliveryOf(record)
    let outcome: AttemptOutcome
    try {
      outcome = await this.options.send(delivery)
    } catch (err) {
      outcome = { kind: 'retry', answer: err instanceof Error ? err.message : String(err) }
    }
    const now = this.deps.clock.now()
    const next = {
      ...record,
      attempts: record.attempts + 1,
      round: record.round + 1,
      lastAnswer: outcome.answer,
    }
    const [settlement, result] = this.settlementOf(outcome, next, now)
    await this.store.settle(record, settlement, now)
    this.options.onOutcome?.(result, delivery, outcome.answer)
  }

  private settlementOf(
    outcome: AttemptOutcome,
    next: DeliveryRecord,
    now: number,
  ): [Settlement, DeliveryOutcome] {
    if (outcome.kind === 'delivered') return [{ kind: 'done' }, 'delivered']
    if (outcome.kind === 'gone') return [{ kind: 'done' }, 'gone']
    const delay = nextDelay(this.options.scheduleMs, next.round, this.deps.random, outcome.retryAfterMs)
    if (delay === undefined) return [{ kind: 'failed', record: { ...next, state: 'failed' } }, 'failed']
    return [{ kind: 'retry', record: { ...next, dueAt: now + delay } }, 'retried']
  }
}
