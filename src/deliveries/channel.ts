// One channel's worker: it claims the due deliveries (queue heads only, so one order's events reach a
// target in order), sends them, and records each result. It looks when it starts, every `pollMs`, and
// again as soon as an attempt settles or a look came back full, up to `maxInFlight` attempts at once:
// throughput follows the receivers, not the poll. Nothing waits on it: the loop's timer is unref'd,
// and `stop` ends it and waits for the attempts in flight.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
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
  private timer: NodeJS.Timeout | undefined
  private looking = false
  /** Something settled during a look: look once more when it ends. */
  private again = false
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

  retry(eventId: string, target: string): Promise<boolean> {
    return this.store.requeue(recordId(eventId, target), this.deps.clock.now())
  }

  stats(): ChannelStats {
    return this.latest
  }

  start(): void {
    // A wake-up on the process's timers: what is due is read from the app's clock, which tests hold still.
    this.timer = setInterval(() => void this.look(true), this.deps.tuning.pollMs).unref()
    void this.look(true)
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await Promise.allSettled([...this.inFlight])
  }

  /** `polled`: a look of the timer, which also refreshes the figures `stats` gives. */
  private async look(polled = false) {
    if (this.timer === undefined) return
    if (this.looking) {
      this.again = true
      return
    }
    this.looking = true
    try {
      const { batch, maxInFlight } = this.deps.tuning
      let full: boolean
      do {
        this.again = false
        const limit = Math.min(batch, maxInFlight - this.inFlight.size)
        if (limit <= 0) break
        const now = this.deps.clock.now()
        const leaseUntil = now + (this.options.leaseMs ?? DEFAULT_LEASE_MS)
        const claimed = await this.store.claim(now, leaseUntil, limit)
        for (const record of claimed) {
          const attempt = this.attempt(record).finally(() => {
            this.inFlight.delete(attempt)
            // The order's next event may be due now, and a place is free.
            void this.look()
          })
          this.inFlight.add(attempt)
        }
        full = claimed.length === limit
      } while ((full || this.again) && this.timer !== undefined)
      if (polled) this.latest = await this.store.stats()
    } catch (err) {
      this.deps.log.warn({ err, channel: this.options.name }, 'deliveries could not be read; trying again')
    } finally {
      this.looking = false
    }
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
