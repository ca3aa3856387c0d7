// The upstream client's fixed tuning: retries, backoff, breaker, pool and body limits. Tests pass
// smaller figures; nothing here is a setting an operator needs.

export interface UpstreamTuning {
  /** Extra attempts for idempotent calls after an unclassified failure. */
  retries: number
  /** A retry starts only if at least this much of the deadline is left once its backoff has passed. */
  minAttemptMs: number
  backoffBaseMs: number
  backoffCapMs: number
  breakerThreshold: number
  breakerOpenMs: number
  connections: number
  /** Status streams being opened (connect + answer head) at once at most; the rest wait their turn. */
  maxOpeningStreams: number
  maxBodyBytes: number
  /** How often an instance reads the shared cool-down from Redis. */
  coolDownPollMs: number
}

export const DEFAULT_TUNING: UpstreamTuning = {
  retries: 2,
  minAttemptMs: 250,
  backoffBaseMs: 100,
  backoffCapMs: 1_000,
  breakerThreshold: 5,
  breakerOpenMs: 5_000,
  connections: 128,
  maxOpeningStreams: 16,
  maxBodyBytes: 16 * 1024 * 1024,
  coolDownPollMs: 250,
}
