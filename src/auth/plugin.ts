// The auth capability (docs/auth.md): SIWX sign-in, sealed sessions, and their routes. Decorates
// `app.sessions`, the CredentialSource the order routes use to act as the signed-in user.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { sessionCookieFor } from '../edge/cookies.js'
import { Challenges } from './challenge.js'
import { revocationFailures } from './metrics.js'
import { MemoryNonceBindings, type NonceBindings } from './nonce-bindings.js'
import { RedisNonceBindings } from './redis-nonce-bindings.js'
import { RedisRevocations } from './redis-revocations.js'
import { MemoryRevocations, type Revocations } from './revocations.js'
import { sessionRoutes } from './session-routes.js'
import { SessionSealer } from './session-seal.js'
import { Sessions } from './sessions.js'
import { SignIn } from './sign-in.js'
import { siwxRoutes } from './siwx-routes.js'

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions
  }
}

export interface AuthOptions {
  apiPrefix: string
  publicOrigin: string
  /** SESSION_SECRET as a list: the first seals, all unseal. */
  sessionSecrets: readonly string[]
  /** SESSION_EXPIRY_MARGIN_MS. */
  expiryMarginMs: number
  /** SIWX_ALLOW_BARE_MESSAGES: the upstream's bare `Nonce:` message, which names no site, signs in. */
  allowBareMessages: boolean
  /**
   * With the built-in sandbox (development): whether it has lapsed an access token early, through its
   * control route, so that sessions holding it count as lapsed here too.
   */
  lapsedUpstream?: (accessToken: string) => boolean
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthOptions) => {
    const { clock, origins } = app
    // Which address each nonce was issued for: a challenge answered by one instance may be verified by another.
    const bindings = app.stores.create<NonceBindings>('nonces', {
      memory: () => new MemoryNonceBindings(clock),
      redis: (link, prefix) => new RedisNonceBindings(link, new MemoryNonceBindings(clock), prefix),
    })
    const challenges = new Challenges(app.upstream, origins, clock, bindings)
    if (!challenges.buildsMessages()) {
      app.log.warn(
        { domain: origins.publicSite.domain },
        'PUBLIC_ORIGIN names a host EIP-4361 messages cannot carry: challenges will have no message',
      )
    }
    const signIn = new SignIn(app.upstream, origins, clock, challenges, {
      allowBareMessages: opts.allowBareMessages,
      bindings,
    })
    const failed = revocationFailures(app.metrics)
    // Logouts are kept in memory, or in Redis shared by every instance (with memory beside it for outages).
    const revocations = app.stores.create<Revocations>('revocations', {
      memory: () => new MemoryRevocations(clock),
      redis: (link, prefix) =>
        // Failures are counted, not logged per request: the Redis link logs the outage once.
        new RedisRevocations(link, { clock, local: new MemoryRevocations(clock), failed, prefix }),
    })
    const sessions = new Sessions(
      new SessionSealer(opts.sessionSecrets),
      sessionCookieFor(opts.publicOrigin),
      challenges,
      clock,
      revocations,
      opts.expiryMarginMs,
      opts.lapsedUpstream,
    )
    app.decorate('sessions', sessions)
    app.rateLimitUsers.identifyWith((request) => sessions.userOf(request))
    await app.register(
      async (scope) => {
        await scope.register(siwxRoutes, { challenges, signIn, sessions })
        await scope.register(sessionRoutes, { signIn, sessions })
      },
      { prefix: opts.apiPrefix },
    )
  },
  {
    name: 'auth',
    dependencies: ['metrics', 'edge', 'origin-policy', 'rate-limits', 'upstream', 'redis'],
    decorators: { fastify: ['clock', 'origins', 'metrics', 'stores', 'rateLimitUsers'] },
  },
)
