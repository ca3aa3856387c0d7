// Builds the deterministic catalog: natives first, then the well-known assets, then the long
// tail, ids in that order from 1. Same input, same ids, on every run.
import type { AddressFormat } from '../addresses/formats.js'
import { base58, evmAddress, hex, tonAddress, versionedBase58, xrpAddress } from '../addresses/formats.js'
import type { ByteSource } from '../addresses/mint.js'
import type { Blockchain } from '../resources.js'
import { CHAINS, type ChainSpec } from './chains.js'
import type { Listing, Tier } from './listing.js'
import { longTailAssets } from './long-tail.js'
import { seededBytes, seededUnits } from './seeded.js'
import { WELL_KNOWN_ASSETS } from './well-known.js'

/** How many long-tail assets to generate; sized so the catalog holds about 2,200 tokens. */
const LONG_TAIL_ASSETS = 1270

const NATIVE_USD: Record<string, number> = {
  BTC: 64250,
  ETH: 3180,
  SOL: 148.6,
  TRX: 0.124,
  BNB: 585,
  POL: 0.52,
  AVAX: 27.4,
  LTC: 71.3,
  DOGE: 0.124,
  XRP: 0.52,
  TON: 6.85,
  SUI: 0.94,
  FTM: 0.71,
}

export interface BuiltCatalog {
  chains: { spec: ChainSpec; blockchain: Blockchain }[]
  listings: Listing[]
}

/** A contract (or issuer, or coin type) address as the chain family spells it. */
export function contractAddress(format: AddressFormat, symbol: string, bytes: ByteSource): string {
  switch (format) {
    case 'sol':
      return base58.encode(bytes(32))
    case 'trx':
      return versionedBase58(0x41, bytes(20))
    case 'ton':
      return tonAddress(bytes(32), true)
    case 'sui':
      return `0x${hex(bytes(32))}::${symbol.toLowerCase()}::${symbol.toUpperCase()}`
    case 'xrp':
      return xrpAddress(bytes(20))
    default:
      return evmAddress(bytes(20))
  }
}

function defaultDecimals(format: AddressFormat, network: string, stable: boolean, unit: number): number {
  if (format === 'xrp') return 15
  if (stable) return network === 'BSC' ? 18 : 6
  if (format === 'sol') return unit < 0.5 ? 6 : 9
  if (format === 'trx') return unit < 0.5 ? 6 : 18
  if (format === 'ton' || format === 'sui') return 9
  return 18
}

export function buildCatalog(): BuiltCatalog {
  const chains = CHAINS.map((spec) => ({
    spec,
    blockchain: {
      id: spec.id,
      name: spec.name,
      network: spec.network,
      neededConfirmations: spec.neededConfirmations,
      depositsActive: spec.depositsActive,
    },
  }))
  const byNetwork = new Map(chains.map((c) => [c.spec.network, c]))
  const listings: Listing[] = []
  const unit = seededUnits('sandbox-decimals-v1')

  const list = (
    network: string,
    fields: { name: string; symbol: string; address: string; decimals: number; native: boolean },
    extra: { usd: number; book: string; tier: Tier; stable: boolean; active: boolean },
  ) => {
    const chain = byNetwork.get(network)
    if (!chain) throw new Error(`catalog: unknown network ${network}`)
    listings.push({
      token: {
        id: listings.length + 1,
        name: fields.name,
        symbol: fields.symbol,
        address: fields.address,
        decimals: fields.decimals,
        blockchainId: chain.blockchain.id,
        isBaseToken: fields.native,
        isStablecoin: extra.stable,
        active: extra.active,
        blockchain: chain.blockchain,
      },
      usd: extra.usd,
      book: extra.book,
      tier: extra.tier,
    })
  }

  for (const { spec } of chains) {
    const { symbol, name, decimals } = spec.native
    const usd = NATIVE_USD[symbol] ?? 1
    list(
      spec.network,
      { name, symbol, address: 'native', decimals, native: true },
      { usd, book: symbol, tier: 'major', stable: false, active: true },
    )
  }

  for (const asset of WELL_KNOWN_ASSETS) {
    for (const network of asset.networks) {
      const spec = byNetwork.get(network)?.spec
      if (!spec) throw new Error(`catalog: ${asset.symbol} on unknown network ${network}`)
      const address = contractAddress(spec.format, asset.symbol, seededBytes(`${asset.symbol}@${network}`))
      const decimals = asset.decimals ?? defaultDecimals(spec.format, network, asset.stable, unit())
      const active = asset.inactiveOn !== 'all' && !asset.inactiveOn.has(network)
      const tier: Tier = asset.stable ? 'stable' : asset.major ? 'major' : 'alt'
      list(
        network,
        { name: asset.name, symbol: asset.symbol, address, decimals, native: false },
        { usd: asset.usd, book: asset.book, tier, stable: asset.stable, active },
      )
    }
  }

  for (const asset of longTailAssets(LONG_TAIL_ASSETS)) {
    for (const network of asset.networks) {
      const spec = byNetwork.get(network)?.spec
      if (!spec) throw new Error(`catalog: ${asset.symbol} on unknown network ${network}`)
      const address = contractAddress(spec.format, asset.symbol, seededBytes(`${asset.symbol}@${network}`))
      list(
        network,
        {
          name: asset.name,
          symbol: asset.symbol,
          address,
          decimals: defaultDecimals(spec.format, network, false, unit()),
          native: false,
        },
        { usd: asset.usd, book: asset.symbol, tier: 'tail', stable: false, active: !asset.inactive },
      )
    }
  }

  return { chains, listings }
}
