// The auth capability (docs/auth.md): SIWX sign-in, sealed sessions, and their routes. Decorates
// `app.sessions`, the CredentialSource the order routes use to act as the signed-in user.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Clock } from '../clock.js'
import type { AllowedOrigins } from '../edge/allowed-origins.js'
import { Challenges } from './challenge.js'
import type { Revocations } from './revocations.js'
import { sessionCookieFor } from './session.js'
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
  clock: Clock
  /** SESSION_SECRET as a list: the first seals, all unseal. */
  sessionSecrets: readonly string[]
  publicOrigin: string
  /** Where logouts are kept: memory, or Redis shared by every instance. */
  revocations: Revocations
  /** SESSION_EXPIRY_MARGIN_MS. */
  expiryMarginMs: number
  origins: AllowedOrigins
  /**
   * With the built-in sandbox (development): whether it has lapsed an access token early, through its
   * control route, so that sessions holding it count as lapsed here too.
   */
  lapsedUpstream?: (accessToken: string) => boolean
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthOptions) => {
    const challenges = new Challenges(app.upstream, opts.origins, opts.clock)
    if (!challenges.buildsMessages()) {
      app.log.warn(
        { domain: opts.origins.publicSite.domain },
        'PUBLIC_ORIGIN names a host EIP-4361 messages cannot carry: challenges will have no message',
      )
    }
    const signIn = new SignIn(app.upstream, opts.origins, opts.clock)
    const sessions = new Sessions(
      new SessionSealer(opts.sessionSecrets),
      sessionCookieFor(opts.publicOrigin),
      challenges,
      opts.clock,
      opts.revocations,
      opts.expiryMarginMs,
      opts.lapsedUpstream,
    )
    app.decorate('sessions', sessions)
    await app.register(
      async (scope) => {
        await scope.register(siwxRoutes, { challenges, signIn, sessions })
        await scope.register(sessionRoutes, { signIn, sessions })
      },
      { prefix: opts.apiPrefix },
    )
  },
  { name: 'auth', dependencies: ['upstream', 'origin-policy'] },
)
