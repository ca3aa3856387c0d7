// Time is injected so tests can move it instead of sleeping.
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's one clock (tests pass their own to buildApp): every plugin reads time from it. */
    clock: Clock
    /** The app's one source of randomness, in [0, 1) (jitter, retry advice): tests make it exact. */
    random: () => number
  }
}
