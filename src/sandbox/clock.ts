// The sandbox's clock: the gateway's Clock (so a test can hand both the same fake clock) plus an
// offset that only moves forward, so tests can jump past order timeouts and token expiries without
// waiting. The offset moves the time read only; timers run on the base clock, each keeping its delay.
import { type Clock, systemClock } from '../clock.js'

export interface SandboxClock extends Clock {
  /** Moves the time read forward by ms, running no timer (the control's advanceTime). */
  jump(ms: number): void
}

export function createClock(base: Clock = systemClock): SandboxClock {
  let offset = 0
  return {
    ...base,
    now: () => base.now() + offset,
    jump(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`Time can only move forward (got ${ms} ms)`)
      offset += ms
    },
  }
}
