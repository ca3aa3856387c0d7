// The sandbox's notion of "now": an injected base clock plus an offset that only moves forward,
// so tests can jump past order timeouts and token expiries without waiting.

export interface SandboxClock {
  now(): number
  advance(ms: number): void
}

export function createClock(base: () => number = Date.now): SandboxClock {
  let offset = 0
  return {
    now: () => base() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`Time can only move forward (got ${ms} ms)`)
      offset += ms
    },
  }
}
