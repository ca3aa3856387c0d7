// The rate-limit groups and their rules (docs/operations.md, "Rate limits"): the defaults, and the
// schema RATE_LIMITS overrides them with.
import { z } from 'zod'

export const RATE_LIMIT_GROUPS = [
  'catalog',
  'pricing',
  'create',
  'orders',
  'stream',
  'auth',
  'global',
] as const
export type RateLimitGroup = (typeof RATE_LIMIT_GROUPS)[number]

const rateLimitRule = z.strictObject({
  max: z.int().positive(),
  timeWindow: z.union([z.int().positive(), z.string().regex(/^\d+\s*(ms|second|minute|hour|day)s?$/)]),
  /** Signed-in requests from one IP may reach ipCeiling × max per window (DEFAULT_IP_CEILING when absent). */
  ipCeiling: z.int().positive().optional(),
})
export type RateLimitRule = z.infer<typeof rateLimitRule>

export const DEFAULT_IP_CEILING = 10

export const DEFAULT_RATE_LIMITS: Record<RateLimitGroup, RateLimitRule> = {
  catalog: { max: 600, timeWindow: '1 minute' },
  pricing: { max: 120, timeWindow: '1 minute' },
  create: { max: 10, timeWindow: '1 minute' },
  orders: { max: 300, timeWindow: '1 minute' },
  stream: { max: 30, timeWindow: '1 minute' },
  auth: { max: 20, timeWindow: '1 minute' },
  global: { max: 300, timeWindow: '1 minute' },
}

/**
 * With the built-in sandbox (no UPSTREAM_URL) a developer clicking through flows creates orders far
 * faster than a user would; RATE_LIMITS still overrides it.
 */
export const SANDBOX_CREATE_LIMIT: RateLimitRule = { max: 120, timeWindow: '1 minute' }

export const rateLimitOverrides = z.partialRecord(z.enum(RATE_LIMIT_GROUPS), rateLimitRule, {
  // zod reports keys outside the enum as unrecognized; its types for record issues omit that code.
  error: (issue) => {
    const { code, keys } = issue as { code: string; keys?: string[] }
    if (code !== 'unrecognized_keys') return undefined
    return `unknown group ${keys?.map((k) => `"${k}"`).join(', ')}; the groups are ${RATE_LIMIT_GROUPS.join(', ')}`
  },
})
