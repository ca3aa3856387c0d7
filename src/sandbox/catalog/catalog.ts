// One sandbox instance's catalog: lookups for pricing and orders, the serialized body of
// GET /v1/tokens (cached until the catalog changes) and the control-side mutations.
import { z } from 'zod'
import { randomSource } from '../addresses/mint.js'
import { UnknownEntityError } from '../control-errors.js'
import type { Blockchain, Token } from '../resources.js'
import { buildCatalog, contractAddress } from './build.js'
import type { ChainSpec } from './chains.js'
import type { Listing } from './listing.js'

export const newTokenSchema = z.object({
  name: z.string().min(1),
  symbol: z.string().min(1),
  blockchainId: z.number().int(),
  address: z.string().min(1).optional(),
  decimals: z.number().int().min(0).max(36).default(18),
  isBaseToken: z.boolean().default(false),
  isStablecoin: z.boolean().default(false),
  active: z.boolean().default(true),
  /** USD price used by quotes; defaults to the price of a listed token with the same symbol, else 1. */
  usdPrice: z.number().positive().optional(),
})
export type NewToken = z.input<typeof newTokenSchema>

export class Catalog {
  private readonly listings: Listing[]
  private readonly byId: Map<number, Listing>
  private readonly chains: Map<number, { spec: ChainSpec; blockchain: Blockchain }>
  private serialized: string | undefined

  constructor() {
    const built = buildCatalog()
    this.listings = built.listings
    this.byId = new Map(built.listings.map((l) => [l.token.id, l]))
    this.chains = new Map(built.chains.map((c) => [c.spec.id, c]))
  }

  tokens(): Token[] {
    return this.listings.map((l) => l.token)
  }

  /** The body of GET /v1/tokens, serialized once per catalog version (it is about 650 KB). */
  json(): string {
    this.serialized ??= JSON.stringify(this.tokens())
    return this.serialized
  }

  listing(id: number): Listing | undefined {
    return this.byId.get(id)
  }

  chainSpec(blockchainId: number): ChainSpec {
    const chain = this.chains.get(blockchainId)
    if (!chain) throw new Error(`Unknown chain ${blockchainId}`)
    return chain.spec
  }

  add(fields: NewToken): Token {
    const input = newTokenSchema.parse(fields)
    const chain = this.chains.get(input.blockchainId)
    if (!chain) throw new UnknownEntityError(`Unknown chain ${input.blockchainId}`)
    const id = Math.max(0, ...this.byId.keys()) + 1
    const namesake = this.listings.find((l) => l.token.symbol.toUpperCase() === input.symbol.toUpperCase())
    const token: Token = {
      id,
      name: input.name,
      symbol: input.symbol,
      address:
        input.address ??
        (input.isBaseToken ? 'native' : contractAddress(chain.spec.format, input.symbol, randomSource)),
      decimals: input.decimals,
      blockchainId: chain.blockchain.id,
      isBaseToken: input.isBaseToken,
      isStablecoin: input.isStablecoin,
      active: input.active,
      blockchain: chain.blockchain,
    }
    const listing: Listing = {
      token,
      usd: input.usdPrice ?? namesake?.usd ?? 1,
      book: namesake?.book ?? input.symbol.toUpperCase(),
      tier: input.isStablecoin ? 'stable' : 'tail',
    }
    this.listings.push(listing)
    this.byId.set(id, listing)
    this.serialized = undefined
    return token
  }

  setActive(id: number, active: boolean): Token {
    const listing = this.byId.get(id)
    if (!listing) throw new UnknownEntityError(`Unknown token ${id}`)
    listing.token.active = active
    this.serialized = undefined
    return listing.token
  }

  /** Moves a token's USD price: every quote that involves it changes from the next request on. */
  setPrice(id: number, usd: number): { id: number; usdPrice: number } {
    const listing = this.byId.get(id)
    if (!listing) throw new UnknownEntityError(`Unknown token ${id}`)
    listing.usd = usd
    return { id, usdPrice: usd }
  }

  setDepositsActive(chainId: number, active: boolean): Blockchain {
    const chain = this.chains.get(chainId)
    if (!chain) throw new UnknownEntityError(`Unknown chain ${chainId}`)
    chain.blockchain.depositsActive = active
    this.serialized = undefined
    return chain.blockchain
  }
}
