// RATE_LIMITS that keep the rate limiter out of the way, for tests about something else: every group
// of the config's own list at `max` a minute.
import { RATE_LIMIT_GROUPS } from '../../src/edge/rate-limit-rules.js'

export const roomyLimits = (max = 1_000_000): string =>
  JSON.stringify(
    Object.fromEntries(RATE_LIMIT_GROUPS.map((group) => [group, { max, timeWindow: '1 minute' }])),
  )
