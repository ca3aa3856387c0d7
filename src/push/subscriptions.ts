// The push subscriptions of each order, in this process or in Redis (redis-subscriptions.ts). A
// subscription is known by the hash of its endpoint: a delivery names it by that id, never by the
// endpoint or its keys, which are secrets. Each is kept at most RETAIN_MS (an order is watched for
// far less), so one whose order never reported a terminal status does not stay for ever.
import { createHash } from 'node:crypto'
import type { Clock } from '../clock.js'

export interface PushTarget {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

export interface StoredSubscription extends PushTarget {
  id: string
}

export const RETAIN_MS = 7 * 24 * 60 * 60 * 1000

export const subscriptionIdOf = (endpoint: string): string =>
  createHash('sha256').update(endpoint).digest('base64url').slice(0, 22)

export interface PushSubscriptions {
  /** Saves or replaces (same endpoint) the order's subscription; `full` when it would be one too many. */
  save(orderId: string, target: PushTarget, maxPerOrder: number): Promise<'saved' | 'full'>
  list(orderId: string): Promise<StoredSubscription[]>
  get(orderId: string, id: string): Promise<StoredSubscription | undefined>
  remove(orderId: string, id: string): Promise<void>
  /** Subscriptions held now (fleet-wide with Redis); those past RETAIN_MS are dropped first. */
  count(): Promise<number>
}

interface Held extends StoredSubscription {
  until: number
}

export class MemorySubscriptions implements PushSubscriptions {
  private readonly byOrder = new Map<string, Map<string, Held>>()

  constructor(private readonly clock: Clock) {}

  async save(orderId: string, target: PushTarget, maxPerOrder: number): Promise<'saved' | 'full'> {
    const held = this.live(orderId) ?? new Map<string, Held>()
    const id = subscriptionIdOf(target.endpoint)
    if (!held.has(id) && held.size >= maxPerOrder) return 'full'
    held.set(id, { ...target, id, until: this.clock.now() + RETAIN_MS })
    this.byOrder.set(orderId, held)
    return 'saved'
  }

  async list(orderId: string): Promise<StoredSubscription[]> {
    return [...(this.live(orderId)?.values() ?? [])].map(({ until: _, ...stored }) => stored)
  }

  async get(orderId: string, id: string): Promise<StoredSubscription | undefined> {
    return (await this.list(orderId)).find((s) => s.id === id)
  }

  async remove(orderId: string, id: string): Promise<void> {
    const held = this.byOrder.get(orderId)
    held?.delete(id)
    if (held?.size === 0) this.byOrder.delete(orderId)
  }

  async count(): Promise<number> {
    let n = 0
    for (const orderId of this.byOrder.keys()) n += this.live(orderId)?.size ?? 0
    return n
  }

  /** The order's subscriptions, those past their time dropped. */
  private live(orderId: string): Map<string, Held> | undefined {
    const held = this.byOrder.get(orderId)
    if (!held) return undefined
    const now = this.clock.now()
    for (const [id, s] of held) if (s.until <= now) held.delete(id)
    if (held.size > 0) return held
    this.byOrder.delete(orderId)
    return undefined
  }
}
