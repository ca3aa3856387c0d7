// Exponential backoff with full jitter: attempt n waits a random time in [0, base·2^n], capped.
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** attempt))
}
