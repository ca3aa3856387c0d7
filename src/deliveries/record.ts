// A delivery as a store keeps it, and the store both kinds (memory, Redis) implement with the same
// meaning: one queue per (target, order) whose head alone is due, a lease taken by `claim`, and a
// `settle` that applies only to the attempt it answers (compare-and-set on `attempts`), so two
// instances that both sent after a lapsed lease record one result.
import { createHash } from 'node:crypto'
import type { Delivery, DeliveryRequest, DeliveryView } from './types.js'

export interface DeliveryRecord extends DeliveryRequest {
  /** `<eventId> <target>`: what enqueueing is idempotent by. */
  id: string
  /** Names the (target, order) queue: one order's events to one target go out in order. */
  queue: string
  state: 'pending' | 'failed'
  /** Attempts made in all. */
  attempts: number
  /** Attempts since it was enqueued or retried by hand: the position in the schedule. */
  round: number
  enqueuedAt: number
  dueAt: number
  lastAnswer: string | null
}

/** What an attempt leaves: tried again later, kept as failed, or gone (delivered, or the target is gone). */
export type Settlement =
  { kind: 'retry'; record: DeliveryRecord } | { kind: 'failed'; record: DeliveryRecord } | { kind: 'done' }

export interface DeliveryStore {
  /** False when this (event, target) was enqueued before (within SEEN_TTL_MS). */
  add(record: DeliveryRecord): Promise<boolean>
  /** Due queue heads, each leased until `leaseUntil`; failed deliveries past retention are dropped. */
  claim(now: number, leaseUntil: number, limit: number): Promise<DeliveryRecord[]>
  /** Applies when the stored delivery has still made `claimed.attempts` attempts. */
  settle(claimed: DeliveryRecord, settlement: Settlement, now: number): Promise<void>
  list(state: 'pending' | 'failed', limit: number): Promise<DeliveryRecord[]>
  /** A failed delivery made pending again, due at once; false when it is not failed. */
  requeue(id: string, now: number): Promise<boolean>
  stats(): Promise<{ pending: number; oldestPendingAt: number | undefined }>
}

/** Failed deliveries are kept this long, and an (event, target) is remembered as long. */
export const RETENTION_MS = 7 * 24 * 3_600_000
export const LIST_LIMIT = 500

export const recordId = (eventId: string, target: string) => `${eventId} ${target}`

export function newRecord(request: DeliveryRequest, now: number): DeliveryRecord {
  const queue = createHash('sha256').update(`${request.target}\n${request.orderId}`).digest('base64url')
  return {
    ...request,
    id: recordId(request.eventId, request.target),
    queue: queue.slice(0, 22),
    state: 'pending',
    attempts: 0,
    round: 0,
    enqueuedAt: now,
    dueAt: now,
    lastAnswer: null,
  }
}

export const viewOf = (r: DeliveryRecord): DeliveryView => ({
  eventId: r.eventId,
  eventType: r.eventType,
  orderId: r.orderId,
  target: r.target,
  state: r.state,
  attempts: r.attempts,
  lastAnswer: r.lastAnswer,
  nextAttemptAt: r.state === 'pending' ? r.dueAt : null,
  enqueuedAt: r.enqueuedAt,
})

/** What the sender is given. */
export const deliveryOf = (r: DeliveryRecord): Delivery => ({
  eventId: r.eventId,
  eventType: r.eventType,
  orderId: r.orderId,
  target: r.target,
  payload: r.payload,
  attempts: r.attempts,
})
