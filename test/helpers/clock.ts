// The one fake clock of the tests, @sinonjs/fake-timers' clock behind the app's Clock: it starts at the
// real time (lru-cache treats a start of 0 as "no TTL") and moves only when told, firing the app's
// timers that fall due on the way, so expiry, backoff, heartbeat and poll tests are exact and never sleep.
import { createClock, type TimerId } from '@sinonjs/fake-timers'
import type { Clock, Timer } from '../../src/clock.js'

export interface FakeClock extends Clock {
  /** Moves time on, running every timer due on the way. */
  advance(ms: number): void
  /** The same, letting the promises each timer starts settle before the next timer runs. */
  advanceAsync(ms: number): Promise<void>
  /**
   * Moves the time read on without running a timer (each keeps its delay, as after a change of the
   * system clock): for jumps of days, which would otherwise run every interval thousands of times.
   */
  jump(ms: number): void
  /** Timers pending on this clock. */
  pending(): number
}

/** How often a running clock catches up with real time. */
const RUNNING_STEP_MS = 5

/**
 * `running`: the clock also follows real time (its timers fire about when real ones would), plus
 * whatever was advanced, for tests that also wait on real sockets.
 */
export function fakeClock({ running = false } = {}): FakeClock {
  const fake = createClock(Date.now())
  if (running) {
    let last = Date.now()
    setInterval(() => {
      const now = Date.now()
      if (now > last) fake.tick(now - last)
      last = now
    }, RUNNING_STEP_MS).unref()
  }
  return {
    now: () => fake.now,
    // In Node, fake-timers hands out timer objects with unref, as Node's own timers are.
    setTimeout: (run, ms) => fake.setTimeout(run, ms) as Timer,
    clearTimeout: (timer) => fake.clearTimeout(timer as TimerId | undefined),
    setInterval: (run, ms) => fake.setInterval(run, ms) as Timer,
    clearInterval: (timer) => fake.clearInterval(timer as TimerId | undefined),
    advance(ms) {
      fake.tick(ms)
    },
    async advanceAsync(ms) {
      await fake.tickAsync(ms)
    },
    jump(ms) {
      fake.setSystemTime(fake.now + ms)
    },
    pending: () => fake.countTimers(),
  }
}
