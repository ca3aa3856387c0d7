// SIWX challenges: a single-use nonce from the upstream and, for a known wallet, a ready EIP-4361
// message naming the asking page's site (its allowed Origin, or PUBLIC_ORIGIN for clients without
// one), so a wallet can sign at once without warning its user about another site. The message
// expires when the nonce does, so a signature made too late is refused here, with a fresh challenge.
// A nonce issued for a wallet is bound to its address (auth/nonce-bindings.ts), so another wallet's
// message cannot spend it.
import { getAddress } from './address.js'
import type { Clock } from '../clock.js'
import type { CallContext, UpstreamClient } from '../upstream/client.js'
import { challengeSchema } from '../upstream/schemas.js'
import type { AllowedOrigins, Asking, Site } from '../edge/allowed-origins.js'
import type { NonceBindings } from './nonce-bindings.js'
import { buildMessage, evmChainId } from './siwe-message.js'

/**
 * How long a built message may be signed: no longer than the upstream's nonce lives. The upstream
 * spec gives no figure; the sandbox's nonces live 5 minutes, and a message outliving its nonce would
 * be signed only to be refused.
 */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000
const PROBE_ADDRESS = '0x0000000000000000000000000000000000000001'
const STATEMENT = 'Sign in to see your swap orders and have new ones attributed to you.'

export interface Challenge {
  nonce: string
  message?: string
}

export interface Wallet {
  address: string
  chainId: string
}

export class Challenges {
  constructor(
    private readonly upstream: UpstreamClient,
    private readonly origins: AllowedOrigins,
    private readonly clock: Clock,
    private readonly bindings: NonceBindings,
  ) {}

  /**
   * The upstream's challenge body (extra fields kept) and our challenge built from it, its message
   * naming the site of the page asking (the request's Origin, or Host, headers).
   */
  async issue(ctx: CallContext, wallet: Wallet | undefined, asking: Asking) {
    // Before the call: the nonce cannot have been minted earlier, so the message cannot outlive it.
    const issuedAt = new Date(this.clock.now())
    const reply = await this.upstream.call(ctx, {
      operation: 'challenge',
      path: '/auth/siwx/challenge',
      schema: challengeSchema,
    })
    const { nonce } = reply.body
    const address = wallet && checksummed(wallet.address)
    if (address !== undefined) await this.bindings.bind(nonce, address, CHALLENGE_TTL_MS)
    const message = wallet && this.messageFor(this.origins.siteAsking(asking), wallet, nonce, issuedAt)
    const challenge: Challenge = message === undefined ? { nonce } : { nonce, message }
    return { upstreamBody: reply.body, challenge }
  }

  /** False when PUBLIC_ORIGIN's host is one EIP-4361 builders refuse: challenges then carry no message. */
  buildsMessages(): boolean {
    const wallet = { address: PROBE_ADDRESS, chainId: '1' }
    return this.messageFor(this.origins.publicSite, wallet, 'probeNonce1', new Date(0)) !== undefined
  }

  /** Undefined when the wallet is not an EVM one, or the nonce cannot be carried in a message. */
  private messageFor(site: Site, wallet: Wallet, nonce: string, issuedAt: Date): string | undefined {
    const chainId = evmChainId(wallet.chainId)
    const address = checksummed(wallet.address)
    if (chainId === undefined || address === undefined) return undefined
    return buildMessage({
      ...site,
      address,
      chainId,
      nonce,
      statement: STATEMENT,
      issuedAt,
      expirationTime: new Date(issuedAt.getTime() + CHALLENGE_TTL_MS),
    })
  }
}

/** The address in its EIP-55 form, or undefined for one that is not an EVM address. */
function checksummed(address: string): `0x${string}` | undefined {
  try {
    return getAddress(address)
  } catch {
    return undefined
  }
}
