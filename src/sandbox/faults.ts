// Faults a test can queue on a spec route: each one answers (or fails to answer) the next `count`
// requests on that route in place of the normal behaviour. Queued per route, first in first out.
import { z } from 'zod'
import type { RouteKey } from './route-keys.js'

const count = z.number().int().positive().optional()

export const faultSchema = z.discriminatedUnion('kind', [
  /** Respond normally, but only after `ms`. */
  z.object({ kind: z.literal('delay'), ms: z.number().int().nonnegative(), count }),
  /** Never respond (until the sandbox closes). */
  z.object({ kind: z.literal('hang'), count }),
  /** The generic 500 envelope, without performing the action. */
  z.object({ kind: z.literal('error500'), count }),
  /** 200 with an HTML page where JSON was expected. */
  z.object({ kind: z.literal('badBody'), count }),
  /** Any raw answer: a proxy's 502 page, a 429 with retry-after... */
  z.object({
    kind: z.literal('status'),
    status: z.number().int().min(100).max(599),
    body: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    count,
  }),
  /** Destroy the socket before doing anything: the action is not performed. */
  z.object({ kind: z.literal('drop'), count }),
  /** Perform the action (create the order...), then destroy the socket instead of answering. */
  z.object({ kind: z.literal('dropAfter'), count }),
  /**
   * Perform the action and send the head at once, then the body in `pieces` equal parts spread over
   * `ms`: every gap is short, the whole answer slow (not on the status stream, which never ends).
   */
  z.object({
    kind: z.literal('trickle'),
    ms: z.number().int().positive(),
    pieces: z.number().int().min(2).max(1000).optional(),
    count,
  }),
])
export type Fault = z.infer<typeof faultSchema>

export class FaultQueue {
  private readonly queued = new Map<RouteKey, { fault: Fault; remaining: number }[]>()

  add(route: RouteKey, fault: Fault): void {
    const parsed = faultSchema.parse(fault)
    const queue = this.queued.get(route) ?? []
    queue.push({ fault: parsed, remaining: parsed.count ?? 1 })
    this.queued.set(route, queue)
  }

  /** The fault for the next request on this route, if any; each call uses one up. */
  take(route: RouteKey): Fault | undefined {
    const queue = this.queued.get(route)
    const head = queue?.[0]
    if (!queue || !head) return undefined
    head.remaining--
    if (head.remaining === 0) queue.shift()
    return head.fault
  }

  clear(): void {
    this.queued.clear()
  }
}
