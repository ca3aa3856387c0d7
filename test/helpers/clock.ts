// The one fake clock of the tests: it starts at the real time (lru-cache treats a start of 0 as
// "no TTL") and moves only when told, so expiry, backoff and breaker tests are exact and never sleep.
import type { Clock } from '../../src/clock.js'

export interface FakeClock extends Clock {
  advance(ms: number): void
}

/** `running`: real time plus whatever was advanced, for tests that also wait on real sockets. */
export function fakeClock({ running = false } = {}): FakeClock {
  const start = Date.now()
  let offset = 0
  return {
    now: running ? () => Date.now() + offset : () => start + offset,
    advance(ms) {
      offset += ms
    },
  }
}
