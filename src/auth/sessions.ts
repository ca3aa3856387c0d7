// The sessions of signed-in callers: read from the sealed cookie or a Bearer session token, issued
// as both, and offered to the order routes as a CredentialSource. The seal is the session; the only
// state kept is the ids of sessions ended by logout, asked only for requests that carry a session.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.js'
import type { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { CredentialSource, UserCredentials } from '../contracts/pair-and-credentials.js'
import type { Challenge, Challenges } from './challenge.js'
import { cookieAttributes, cookiesOf, type SessionCookie } from '../edge/cookies.js'
import type { Revocations } from './revocations.js'
import { isLapsed, type Session, sessionSchema, signedInView } from './session.js'
import type { SessionSealer } from './session-seal.js'

export type SessionState =
  { state: 'none' } | { state: 'active' | 'lapsed'; session: Session; source: 'cookie' | 'bearer' }

const BEARER = /^Bearer\s+(\S+)\s*$/i
/** Most requests (apps, servers, signed-out browsers) carry neither cookie nor token. */
const NO_SESSION: Promise<SessionState> = Promise.resolve({ state: 'none' })
const carriesSession = (request: FastifyRequest) =>
  request.headers.authorization !== undefined || request.headers.cookie !== undefined
/** The upstream user id, or the wallet address when /auth/me could not be read at sign-in. */
const userKeyOf = (session: Session) => session.userId ?? session.address

export class Sessions implements CredentialSource {
  /** Each request's session is unsealed once, however many routes and hooks ask. */
  private readonly states = new WeakMap<FastifyRequest, Promise<SessionState>>()

  constructor(
    private readonly sealer: SessionSealer,
    private readonly cookie: SessionCookie,
    private readonly challenges: Challenges,
    private readonly clock: Clock,
    private readonly revocations: Revocations,
    /** SESSION_EXPIRY_MARGIN_MS: how long before the token's `exp` a session counts as lapsed. */
    private readonly expiryMarginMs: number,
    /** With the built-in sandbox: whether it has lapsed this access token before its `exp`. */
    private readonly lapsedUpstream?: (accessToken: string) => boolean,
  ) {}

  /** What the client is shown of a session (verify, refresh, session): never a token. */
  view(session: Session) {
    return signedInView(session, this.clock.now(), this.expiryMarginMs)
  }

  read(request: FastifyRequest): Promise<SessionState> {
    if (!carriesSession(request)) return NO_SESSION
    let state = this.states.get(request)
    if (!state) {
      state = this.unsealFrom(request)
      this.states.set(request, state)
    }
    return state
  }

  /**
   * Who a request counts as for rate limits: the signed-in user (a lapsed access token still names
   * one), or undefined. Requests that carry no cookie nor token get no promise at all: most do not.
   */
  userOf(request: FastifyRequest): Promise<string | undefined> | undefined {
    if (!carriesSession(request)) return undefined
    return this.read(request).then((read) => (read.state === 'none' ? undefined : userKeyOf(read.session)))
  }

  async credentialsFor(
    request: FastifyRequest,
    lapsed: 'ignore' | 'reject',
  ): Promise<UserCredentials | undefined> {
    const read = await this.read(request)
    if (read.state === 'none') return undefined
    if (read.state === 'lapsed') {
      if (lapsed === 'ignore') return undefined
      throw await this.expired(request)
    }
    return { accessToken: read.session.accessToken, userKey: userKeyOf(read.session) }
  }

  /** SESSION_EXPIRED carrying a fresh challenge, with a ready message for the session's wallet. */
  async expired(
    request: FastifyRequest,
    problem: (challenge: Challenge) => GatewayError = problems.signInLapsed,
  ): Promise<GatewayError> {
    const read = await this.read(request)
    const wallet = read.state === 'none' ? undefined : read.session
    const { challenge } = await this.challenges.issue(request.upstreamContext(), wallet, request)
    return problem(challenge)
  }

  /** When the session counts as lapsed (the margin before its token's `exp`): a stream ends then. */
  lapsesAt(session: Session): number {
    return session.expiresAt - this.expiryMarginMs
  }

  /** False once the session has been logged out, on any instance: a stream it opened ends. */
  async stillOpen(session: Session): Promise<boolean> {
    return !(await this.revocations.isRevoked(session.sid))
  }

  /** Seals the session, sets it as the cookie, and returns the sealed form for Bearer use. */
  async issue(reply: FastifyReply, session: Session): Promise<string> {
    const sealed = await this.sealer.seal(session)
    reply.setCookie(this.cookie.name, sealed, {
      ...cookieAttributes(this.cookie),
      maxAge: Math.max(0, Math.floor((session.usableUntil - this.clock.now()) / 1000)),
    })
    return sealed
  }

  /** Logout: this session, and every copy of its cookie or token, is no session from now on. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const read = await this.read(request)
    if (read.state !== 'none') await this.revocations.revoke(read.session.sid, read.session.usableUntil)
    reply.clearCookie(this.cookie.name, cookieAttributes(this.cookie))
  }

  private async unsealFrom(request: FastifyRequest): Promise<SessionState> {
    const bearer = BEARER.exec(request.headers.authorization ?? '')?.[1]
    const source = bearer === undefined ? 'cookie' : 'bearer'
    const sealed = bearer ?? cookiesOf(request)[this.cookie.name]
    if (!sealed) return { state: 'none' }
    const parsed = sessionSchema.safeParse(await this.sealer.unseal(sealed))
    const now = this.clock.now()
    if (!parsed.success || now >= parsed.data.usableUntil) return { state: 'none' }
    if (await this.revocations.isRevoked(parsed.data.sid)) return { state: 'none' }
    const lapsed =
      isLapsed(parsed.data, now, this.expiryMarginMs) ||
      this.lapsedUpstream?.(parsed.data.accessToken) === true
    return { state: lapsed ? 'lapsed' : 'active', session: parsed.data, source }
  }
}
