// Per-client request limits by route group (CONTRACT.md §9). One counter per (group, client IP) across
// all the routes of a group: the group is part of the counter's key, and each group's max and window
// are looked up per request. Counters live in memory, or in Redis when the gateway runs several
// instances; a Redis that is away lets requests through (fail open) rather than refusing everyone.
import rateLimit, { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import type { RateLimitGroup, RateLimitRule } from '../config.js'
import { clientIpOf } from './client-ip.js'
import { routeOf } from './route-group.js'
import { GatewayError } from '../errors.js'

export interface RateLimitOptions {
  limits: Record<RateLimitGroup, RateLimitRule>
  clientIpHeader: string | undefined
  redis?: Redis
}

/** The group a request counts in; `false` is never limited (health, readiness). */
export const groupOf = (request: FastifyRequest): RateLimitGroup | false => routeOf(request).group ?? 'global'

/**
 * The client's counter key: IPv6 addresses normalised by the plugin's own rule (a /64 counts as one
 * client), anything else lower-cased as the plugin does. An address without a colon is not IPv6, so it
 * skips the plugin's IPv6 test (node:net's, a regular expression over a kilobyte long) on every request.
 */
const keyOfIp = (ip: string): string => (ip.includes(':') ? normalizeIP(ip) : ip.toLowerCase())

const UNIT_MS: Record<string, number> = {
  ms: 1,
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
}

/** `"1 minute"`, `"30 seconds"` or a number of ms (the forms config.ts accepts) → ms. */
export function windowMs(timeWindow: RateLimitRule['timeWindow']): number {
  if (typeof timeWindow === 'number') return timeWindow
  const [, amount, unit] = /^(\d+)\s*(ms|second|minute|hour|day)s?$/.exec(timeWindow) ?? []
  const ms = Number(amount) * (UNIT_MS[unit ?? ''] ?? Number.NaN)
  if (!Number.isFinite(ms) || ms <= 0)
    throw new Error(`RATE_LIMITS: cannot read the time window "${timeWindow}"`)
  return ms
}

export const rateLimits = fp(
  async (app: FastifyInstance, opts: RateLimitOptions) => {
    const rules = Object.fromEntries(
      Object.entries(opts.limits).map(([group, rule]) => [
        group,
        { max: rule.max, ms: windowMs(rule.timeWindow) },
      ]),
    ) as Record<RateLimitGroup, { max: number; ms: number }>
    const ruleOf = (request: FastifyRequest) => rules[groupOf(request) || 'global']

    await app.register(rateLimit, {
      global: true,
      hook: 'onRequest',
      allowList: (request) => groupOf(request) === false,
      keyGenerator: (request) => `${groupOf(request)}:${keyOfIp(clientIpOf(request, opts.clientIpHeader))}`,
      max: (request) => ruleOf(request).max,
      timeWindow: (request) => ruleOf(request).ms,
      cache: 50_000,
      ...(opts.redis ? { redis: opts.redis, nameSpace: 'swap-gateway:ratelimit:', skipOnError: true } : {}),
      errorResponseBuilder: (request, context) => {
        const retryAfter = Math.max(1, Math.ceil(context.ttl / 1000))
        const group = groupOf(request)
        return new GatewayError(
          'RATE_LIMITED',
          `Too many requests in the "${group}" group; retry after ${retryAfter} s.`,
          {
            members: { retryAfter, group, limit: context.max },
            headers: { 'retry-after': String(retryAfter) },
          },
        )
      },
    })
  },
  { name: 'rate-limits' },
)
