// The shapes capabilities meet at, kept below all of them: the catalog's check of a pair and auth's
// credentials of the caller, which orders (and the live quote) use without importing either's code.
import type { FastifyRequest } from 'fastify'
import type { GatewayError } from '../errors.js'
import type { CallContext } from '../upstream/client.js'
import type { Token } from '../upstream/schemas.js'

export interface PairGuard {
  /**
   * Throws UNKNOWN_TOKEN or PAIR_UNAVAILABLE for a pair that must not reach the upstream; otherwise
   * answers the pair's two tokens as the catalog has them.
   */
  checkPair(
    ctx: CallContext,
    depositTokenId: number,
    settleTokenId: number,
  ): Promise<{ deposit: Token; settle: Token }>
}

export interface UserCredentials {
  accessToken: string
  /** Stable id of the signed-in user (upstream user id, or the wallet address when unknown). */
  userKey: string
}

export interface CredentialSource {
  /**
   * The signed-in caller's upstream credentials, or undefined without a session. A lapsed session is
   * treated as none with 'ignore' (prices do not depend on the user) and throws SESSION_EXPIRED, with a
   * fresh challenge, with 'reject' (an order must not silently lose its attribution).
   */
  credentialsFor(request: FastifyRequest, lapsed: 'ignore' | 'reject'): Promise<UserCredentials | undefined>
  /**
   * SESSION_EXPIRED with a fresh challenge for this caller, for when the upstream refuses an access
   * token the gateway still held valid: the client signs again, exactly as after a lapse.
   */
  expired(request: FastifyRequest): Promise<GatewayError>
}
