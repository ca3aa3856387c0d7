// Time is injected so tests can move it instead of sleeping: the app reads the time and sets the
// timers whose timing is behaviour (heartbeats, retries, polls, leases, deadlines) through one clock.

/** A pending timer; unref lets the process exit while it waits. */
export interface Timer {
  unref(): unknown
}

export interface Clock {
  now(): number
  setTimeout(run: () => void, ms: number): Timer
  clearTimeout(timer: Timer | undefined): void
  setInterval(run: () => void, ms: number): Timer
  clearInterval(timer: Timer | undefined): void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout | undefined),
}

/** Resolves after ms on the clock; at once for no wait (a clock that tests hold still runs no timer). */
export function pause(clock: Clock, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve) => clock.setTimeout(resolve, ms))
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's one clock (tests pass their own to buildApp): every plugin reads time and sets its timers on it. */
    clock: Clock
    /** The app's one source of randomness, in [0, 1) (jitter, retry advice): tests make it exact. */
    random: () => number
  }
}
