// Per-client request limits by route group (docs/operations.md). One counter per (group, client) across
// all the routes of a group: the group is part of the counter's key, and each group's max and window
// are looked up per request. The client is the signed-in user when the request carries a valid
// session, its IP otherwise; signed-in requests also count against a ceiling per IP (ipCeiling × max),
// so fresh wallets cannot mint budgets on one address. Counters live in memory, or in Redis when the
// gateway runs several instances; a Redis that is away lets requests through (fail open) rather than
// refusing everyone.
import { clientKeyOf } from './client-ip.js'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { DEFAULT_IP_CEILING, type RateLimitGroup, type RateLimitRule } from './rate-limit-rules.js'
import { routeOf } from './route-group.js'
import { problems } from '../problems.js'
import { MemoryWindowCounter, RedisWindowCounter, type WindowCounter } from '../redis/window-counter.js'

export interface RateLimitOptions {
  limits: Record<RateLimitGroup, RateLimitRule>
}

/** The signed-in user a request counts as (undefined without a session; no promise without credentials). */
type UserOf = (request: FastifyRequest) => Promise<string | undefined> | undefined

declare module 'fastify' {
  interface FastifyInstance {
    /** Who a request's signed-in user is, for per-user limits: sign-in (a later plugin) names its reader here. */
    rateLimitUsers: { identifyWith(userOf: UserOf): void }
  }
}
/** Distinct clients remembered in memory, as for the plugin's own counters. */
const MEMORY_KEYS = 50_000

/** The group a request counts in; `false` is never limited (health, readiness). */
export const groupOf = (request: FastifyRequest): RateLimitGroup | false => routeOf(request).group ?? 'global'

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

/** The 429 of a group's limit (the plugin's) or of the IP ceiling (ours); `whose` says which was hit. */
function rateLimited(group: RateLimitGroup, limit: number, ttlMs: number, whose: string, headers = {}) {
  return problems.rateLimited({ group, limit, whose }, Math.max(1, Math.ceil(ttlMs / 1000)), headers)
}

export const rateLimits = fp(
  async (app: FastifyInstance, opts: RateLimitOptions) => {
    const rules = Object.fromEntries(
      Object.entries(opts.limits).map(([group, rule]) => [
        group,
        {
          max: rule.max,
          ms: windowMs(rule.timeWindow),
          ceiling: (rule.ipCeiling ?? DEFAULT_IP_CEILING) * rule.max,
        },
      ]),
    ) as Record<RateLimitGroup, { max: number; ms: number; ceiling: number }>
    const ruleOf = (request: FastifyRequest) => rules[groupOf(request) || 'global']
    // Sessions are read by auth, registered after the edge, which names its reader here; until then
    // (and in an app without sign-in) every request is keyed by its address.
    let userOf: UserOf = () => undefined
    app.decorate('rateLimitUsers', {
      identifyWith: (reader: UserOf) => {
        userOf = reader
      },
    })
    // The plugin's createRateLimit could count the ceiling, but its Redis keys would be named after a
    // route it does not have ("undefinedundefined-"): a counter of ours, in the same key space, instead.
    const store = app.stores.create('rateLimits', {
      memory: () => ({
        ceilings: new MemoryWindowCounter(app.clock, MEMORY_KEYS) as WindowCounter,
        shared: {},
      }),
      redis: (link, nameSpace) => ({
        ceilings: new RedisWindowCounter(link.client, nameSpace),
        shared: { redis: link.client, nameSpace, skipOnError: true },
      }),
    })

    // Routes of no group (health, readiness, preflights) get no limiter hook at all: cheaper than the
    // plugin's allow list, which it would ask (and await) on every other request.
    app.addHook('onRoute', (route) => {
      if (route.config?.group === false) route.config.rateLimit = false
    })
    await app.register(rateLimit, {
      global: true,
      hook: 'onRequest',
      keyGenerator: (request) => {
        const group = groupOf(request)
        const user = userOf(request)
        if (user === undefined) return `${group}:${clientKeyOf(request)}`
        return user.then((id) =>
          id === undefined ? `${group}:${clientKeyOf(request)}` : `${group}:user:${id}`,
        )
      },
      max: (request) => ruleOf(request).max,
      timeWindow: (request) => ruleOf(request).ms,
      cache: MEMORY_KEYS,
      ...store.shared,
      errorResponseBuilder: (request, context) =>
        rateLimited(groupOf(request) || 'global', context.max, context.ttl, 'from this client'),
    })

    const { ceilings } = store
    const overCeiling = async (request: FastifyRequest) => {
      const group = groupOf(request) || 'global'
      const rule = rules[group]
      const hit = await ceilings
        .hit(`${group}:ceiling:${clientKeyOf(request)}`, rule.ms)
        .catch(() => undefined)
      if (!hit || hit.count <= rule.ceiling) return
      throw rateLimited(group, rule.ceiling, hit.resetMs, 'from this address', {
        'x-ratelimit-limit': String(rule.ceiling),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(hit.resetMs / 1000)),
      })
    }
    // Runs after the plugin's own hook, for signed-in requests only: a request the user's own limit
    // refused never reaches it, and requests without credentials pay one function call.
    const ipCeiling: onRequestHookHandler = (request, _reply, done) => {
      const user = userOf(request)
      if (user === undefined) return done()
      user.then((id) => (id === undefined ? undefined : overCeiling(request))).then(() => done(), done)
    }
    app.addHook('onRoute', (route) => {
      if (route.config?.group === false) return
      const own = route.onRequest
      route.onRequest = [...(Array.isArray(own) ? own : own ? [own] : []), ipCeiling]
    })
  },
  {
    name: 'rate-limits',
    dependencies: ['client-ip', 'redis'],
    decorators: { fastify: ['clock', 'stores'] },
  },
)
