// The sessions of signed-in callers: read from the sealed cookie or a Bearer session token, issued
// as both, and offered to the order routes as a CredentialSource. Stateless: the seal is the session.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.js'
import { GatewayError } from '../errors.js'
import type { CredentialSource, UserCredentials } from '../orders/ports.js'
import type { Challenges } from './challenge.js'
import { cookiesOf } from './cookies.js'
import { cookieAttributes, isLapsed, type Session, type SessionCookie, sessionSchema } from './session.js'
import type { SessionSealer } from './session-seal.js'

export type SessionState =
  { state: 'none' } | { state: 'active' | 'lapsed'; session: Session; source: 'cookie' | 'bearer' }

const BEARER = /^Bearer\s+(\S+)\s*$/i
/** Most requests (apps, servers, signed-out browsers) carry neither cookie nor token. */
const NO_SESSION: Promise<SessionState> = Promise.resolve({ state: 'none' })

export class Sessions implements CredentialSource {
  /** Each request's session is unsealed once, however many routes and hooks ask. */
  private readonly states = new WeakMap<FastifyRequest, Promise<SessionState>>()

  constructor(
    private readonly sealer: SessionSealer,
    private readonly cookie: SessionCookie,
    private readonly challenges: Challenges,
    private readonly clock: Clock,
    /** With the built-in sandbox: whether it has lapsed this access token before its `exp`. */
    private readonly lapsedUpstream?: (accessToken: string) => boolean,
  ) {}

  read(request: FastifyRequest): Promise<SessionState> {
    if (request.headers.authorization === undefined && request.headers.cookie === undefined) return NO_SESSION
    let state = this.states.get(request)
    if (!state) {
      state = this.unsealFrom(request)
      this.states.set(request, state)
    }
    return state
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
    return { accessToken: read.session.accessToken, userKey: read.session.userId ?? read.session.address }
  }

  /** SESSION_EXPIRED carrying a fresh challenge, with a ready message for the session's wallet. */
  async expired(request: FastifyRequest, detail = 'The sign-in has lapsed: sign the challenge to continue.') {
    const read = await this.read(request)
    const wallet = read.state === 'none' ? undefined : read.session
    const { challenge } = await this.challenges.issue(
      request.upstreamContext(),
      wallet,
      request.headers.origin,
    )
    return new GatewayError('SESSION_EXPIRED', detail, { members: { challenge } })
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

  clear(reply: FastifyReply): void {
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
    const lapsed = isLapsed(parsed.data, now) || this.lapsedUpstream?.(parsed.data.accessToken) === true
    return { state: lapsed ? 'lapsed' : 'active', session: parsed.data, source }
  }
}
