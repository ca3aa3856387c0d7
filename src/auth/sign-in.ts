// Sign-in and renewal against the upstream. An EIP-4361 message is checked here first (its site and
// URI, the wallet and chain of `data`, its validity window, the address its nonce was issued for),
// so a signature minted for another site never reaches the upstream; then the upstream verifies the
// signature and consumes the nonce. The site is the request's Origin when one is sent (a page signs
// in for itself), else any allowed origin. The upstream's bare `Nonce:` message names no site, so
// no wallet could warn that a phishing page asked for it: refused unless SIWX_ALLOW_BARE_MESSAGES.
// A refusal that a new signature cures (the nonce or the message has lapsed: a slow wallet) carries
// a fresh challenge, so the wallet signs again in one step.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Clock } from '../clock.js'
import { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { CallContext, UpstreamClient, UpstreamReply } from '../upstream/client.js'
import { meSchema, tokensPairSchema } from '../upstream/schemas.js'
import type { AllowedOrigins, Asking, Site } from '../edge/allowed-origins.js'
import { CHALLENGE_TTL_MS, type Challenges } from './challenge.js'
import { sameAddress } from './address.js'
import type { NonceBindings } from './nonce-bindings.js'
import type { VerifyBody } from './schemas.js'
import { SESSION_MAX_AGE_MS, type Session } from './session.js'
import { evmChainId, hasLapsed, messageProblem, readMessage } from './siwe-message.js'
import { accessTokenExpiry, upstreamCookie } from './upstream-tokens.js'

/** The refresh success body is not documented: anything parses, the token is looked for below. */
const refreshAnswer = z.unknown()

export interface SignInOptions {
  /** SIWX_ALLOW_BARE_MESSAGES: the upstream's bare `Nonce: <nonce>` message signs in too. */
  allowBareMessages: boolean
  bindings: NonceBindings
}

export class SignIn {
  constructor(
    private readonly upstream: UpstreamClient,
    private readonly origins: AllowedOrigins,
    private readonly clock: Clock,
    private readonly challenges: Challenges,
    private readonly options: SignInOptions,
  ) {}

  /**
   * The site a message naming `domain` must be for: the request's Origin when it sent one; otherwise
   * the allowed origin the message names, if any (PUBLIC_ORIGIN's site, which then cannot match).
   */
  private siteExpected(origin: string | undefined, domain: string, scheme: string | undefined): Site {
    return this.origins.siteFor(origin ?? `${scheme ?? 'https'}://${domain}`)
  }

  /**
   * Throws SIGNATURE_INVALID or NONCE_MISSING for a SIWx message that is not for this site, or not
   * for this wallet; 'lapsed' when its time has passed, which a new signature of a fresh message cures.
   */
  private async checkMessage(body: VerifyBody, origin: string | undefined): Promise<'lapsed' | undefined> {
    const refused = problems.signInMessageRefused
    const read = readMessage(body.message)
    switch (read.kind) {
      case 'plain':
        if (read.nonce === undefined) throw problems.nonceMissing()
        if (!this.options.allowBareMessages) {
          throw refused('it names no site: sign the EIP-4361 message the challenge gives for your address')
        }
        return this.checkNonceOwner(read.nonce, body.data.accountAddress)
      case 'no-nonce':
        throw problems.nonceMissing()
      case 'malformed':
        throw refused('it is not a well-formed EIP-4361 message')
      case 'other-chain': {
        const site = this.siteExpected(origin, read.domain, read.scheme)
        if (read.domain !== site.domain || (read.scheme ?? 'https') !== site.scheme) {
          throw refused(`the message is for ${read.domain}, not this site`)
        }
        return
      }
      case 'eip4361': {
        const chainId = evmChainId(body.data.chainId)
        if (chainId === undefined) throw refused('data.chainId is not an EVM chain id')
        const site = this.siteExpected(origin, read.fields.domain ?? '', read.fields.scheme)
        const now = this.clock.now()
        const problem = messageProblem(read.fields, {
          ...site,
          address: body.data.accountAddress,
          chainId,
          now: new Date(now),
          nonceLifetimeMs: CHALLENGE_TTL_MS,
        })
        if (problem && hasLapsed(read.fields, now, CHALLENGE_TTL_MS)) return 'lapsed'
        if (problem) throw refused(problem)
        return this.checkNonceOwner(read.nonce, body.data.accountAddress)
      }
    }
  }

  /** Refuses a nonce the challenge issued for another address than the one signing in. */
  private async checkNonceOwner(nonce: string, address: string): Promise<undefined> {
    const owner = await this.options.bindings.addressFor(nonce)
    if (owner !== undefined && !sameAddress(owner, address)) {
      throw problems.signInMessageRefused('its nonce was issued for another address')
    }
    return undefined
  }

  async verify(ctx: CallContext, body: VerifyBody, asking: Asking): Promise<Session> {
    if ((await this.checkMessage(body, asking.headers.origin)) === 'lapsed') {
      throw await this.withFreshChallenge(ctx, problems.signInMessageLapsed(), body, asking)
    }
    let tokens
    try {
      tokens = await this.upstream.call(ctx, {
        operation: 'verify',
        method: 'POST',
        path: '/auth/siwx/verify',
        body: { data: body.data, message: body.message, signature: body.signature },
        tenantKey: true,
        schema: tokensPairSchema,
      })
    } catch (err) {
      // A nonce that lapsed is cured by a new signature too.
      if (!(err instanceof GatewayError && err.code === 'NONCE_INVALID')) throw err
      throw await this.withFreshChallenge(ctx, err, body, asking)
    }
    const { accessToken } = tokens.body
    return {
      v: 1,
      sid: randomUUID(),
      accessToken,
      refreshCookie: upstreamCookie(tokens.headers, 'refresh_token') ?? null,
      address: body.data.accountAddress,
      chainId: body.data.chainId,
      userId: await this.userIdOf(ctx, accessToken),
      expiresAt: accessTokenExpiry(accessToken, this.clock.now()),
      usableUntil: this.clock.now() + SESSION_MAX_AGE_MS,
    }
  }

  /**
   * The renewed session, or undefined when the upstream refused the refresh (the upstream spec: today it
   * always does). Other failures (the upstream down, a timeout) are thrown as they are.
   */
  async refresh(ctx: CallContext, session: Session): Promise<Session | undefined> {
    if (session.refreshCookie === null) return undefined
    let reply: UpstreamReply<unknown>
    try {
      reply = await this.upstream.call(ctx, {
        operation: 'refresh',
        method: 'POST',
        path: '/auth/refresh',
        // Sent by the gateway itself: the upstream's cookie Path cannot be relied on to match ours.
        cookie: `refresh_token=${session.refreshCookie}`,
        schema: refreshAnswer,
      })
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'SESSION_EXPIRED') return undefined
      throw err
    }
    // The success body is not documented: take the token from it if it is there, else from the cookie.
    const body = reply.body as { accessToken?: unknown } | undefined
    const accessToken =
      typeof body?.accessToken === 'string' && body.accessToken
        ? body.accessToken
        : upstreamCookie(reply.headers, 'access_token')
    if (!accessToken) {
      ctx.log.warn({ upstream: { operation: 'refresh' } }, 'refresh answered without an access token')
      return undefined
    }
    return {
      ...session,
      accessToken,
      refreshCookie: upstreamCookie(reply.headers, 'refresh_token') ?? session.refreshCookie,
      expiresAt: accessTokenExpiry(accessToken, this.clock.now()),
      usableUntil: this.clock.now() + SESSION_MAX_AGE_MS,
    }
  }

  /** The refusal again, carrying a fresh challenge for the same wallet and page if one can be had. */
  private async withFreshChallenge(ctx: CallContext, err: GatewayError, body: VerifyBody, asking: Asking) {
    const wallet = { address: body.data.accountAddress, chainId: body.data.chainId }
    try {
      const { challenge } = await this.challenges.issue(ctx, wallet, asking)
      return err.copy({ members: { challenge }, cause: err })
    } catch {
      // The upstream failed to give a nonce: the refusal stands alone, and a new sign-in starts over.
      return err
    }
  }

  /** The user id, read once at sign-in. Sign-in still succeeds without it: orders are attributed anyway. */
  private async userIdOf(ctx: CallContext, accessToken: string): Promise<string | null> {
    try {
      const me = await this.upstream.call(ctx, {
        operation: 'me',
        path: '/auth/me',
        accessToken,
        schema: meSchema,
      })
      return me.body.id
    } catch (err) {
      ctx.log.warn({ err: String(err) }, 'signed in, but /auth/me could not be read')
      return null
    }
  }
}
