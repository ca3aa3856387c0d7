// No reconnect storms (docs/stream.md): a fleet holding tens of thousands of streams must not send
// them all back at the same moment, neither after a hiccup (every EventSource waits its `retry:`) nor
// after a deploy (every stream of an instance ends at shutdown). Both are spread at random.
import type { Clock } from '../clock.js'

/** The `retry:` advice for one stream: the base spread over ±50 %. */
export function jitteredRetry(baseMs: number, random: () => number): number {
  return Math.round(baseMs * (0.5 + random()))
}

/**
 * The window over which streams are ended at shutdown: the configured spread, but never so wide that
 * the last end leaves no time before the shutdown deadline (in-flight requests, closing the
 * listeners and the upstream pool): a fifth of the deadline, at most a second, is kept for that.
 */
export function drainWindowMs(spreadMs: number, shutdownTimeoutMs: number): number {
  const margin = Math.min(1_000, shutdownTimeoutMs / 5)
  return Math.max(0, Math.min(spreadMs, shutdownTimeoutMs - margin))
}

/**
 * Calls `act` on every item at its own random moment within `windowMs` from now, and resolves after
 * the last. One timer at a time, re-armed for the next due item, rather than a timer per item.
 */
export function spreadOver<T>(
  clock: Clock,
  items: readonly T[],
  windowMs: number,
  random: () => number,
  act: (item: T) => void,
): Promise<void> {
  const due = items.map((item) => ({ item, at: random() * windowMs })).sort((a, b) => a.at - b.at)
  const started = clock.now()
  let next = 0
  return new Promise((resolve) => {
    const tick = () => {
      const elapsed = clock.now() - started
      while (next < due.length && due[next]!.at <= elapsed) act(due[next++]!.item)
      if (next === due.length) resolve()
      else clock.setTimeout(tick, Math.ceil(due[next]!.at - elapsed))
    }
    tick()
  })
}
