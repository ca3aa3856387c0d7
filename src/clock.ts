// Time is injected so tests can move it instead of sleeping.
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
