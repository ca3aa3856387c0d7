// When a failed attempt is tried again: the schedule's next delay spread by ±20 %, or the target's own
// Retry-After when that is longer; undefined once the schedule is spent (the delivery has failed).

export const JITTER = 0.2

/** `round`: failed attempts so far in this round, this one included (1 after the first). */
export function nextDelay(
  scheduleMs: readonly number[],
  round: number,
  random: () => number,
  retryAfterMs?: number,
): number | undefined {
  const base = scheduleMs[round - 1]
  if (base === undefined) return undefined
  const spread = Math.round(base * (1 + JITTER * (2 * random() - 1)))
  return retryAfterMs !== undefined && retryAfterMs > spread ? retryAfterMs : spread
}
