// One channel's worker: every `pollMs` it claims the due deliveries (queue heads only, so one order's
// events reach a target in order), sends them, and records each result. Nothing waits on it: the
// loop's timer is unref'd, and `stop` ends it and waits for the attempts in flight.
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
}

export const DEFAULT_TUNING: DeliveryTuning = { pollMs: 1_000, batch: 32 }
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
    this.timer = setInterval(() => void this.look(), this.deps.tuning.pollMs).unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await Promise.allSettled([...this.inFlight])
  }

  private async look() {
    if (this.looking || this.timer === undefined) return
    this.looking = true
    try {
      const now = this.deps.clock.now()
      const leaseUntil = now + (this.options.leaseMs ?? DEFAULT_LEASE_MS)
      for (const record of await this.store.claim(now, leaseUntil, this.deps.tuning.batch)) {
        const attempt = this.attempt(record).finally(() => this.inFlight.delete(attempt))
        this.inFlight.add(attempt)
      }
      this.latest = await this.store.stats()
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
