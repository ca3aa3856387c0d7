// The catalog's long tail: over a thousand smaller project tokens with plausible names, each on
// one to three chains. Generated from a fixed seed so every run lists the same tokens.
import { seededUnits } from './seeded.js'

const PREFIXES = (
  'Aether Nova Quantum Lumen Zenith Orbit Vertex Helix Apex Nimbus Solace Arbor Cobalt Ember Flux Glacier ' +
  'Harbor Ion Jade Kinetic Lattice Meridian Nebula Onyx Prism Quasar Radiant Sable Tidal Umbra Vortex ' +
  'Willow Xeno Yield Zephyr Atlas Beacon Cipher Delta Echo Fable Gravity Halo Indigo Juno Krypton Lunar ' +
  'Mosaic Nexus Oracle Pulse Quill Ripple Sierra Terra Unity Vector Wander Xylo Zinc Amber Blaze Crest ' +
  'Drift Ether Falcon Granite Horizon Iris Kite Lotus Magma Nomad Opal Pixel Quartz Rune Spark Titan'
).split(' ')

const SUFFIXES = (
  'Protocol Finance Network DAO Swap Labs AI Chain Token Coin Inu Verse Fi Capital Games ' +
  'Markets Bridge Vault Pay Cash'
).split(' ')

/** Where small tokens are usually launched, with relative weights. */
const HOMES: [string, number][] = [
  ['ETH', 30],
  ['BSC', 22],
  ['SOL', 18],
  ['BASE', 10],
  ['ARBITRUM', 8],
  ['POLYGON', 6],
  ['TRX', 3],
  ['AVAX', 3],
  ['OPTIMISM', 3],
  ['TON', 3],
  ['SUI', 2],
  ['LINEA', 1],
  ['ZKSYNC', 1],
  ['FTM', 1],
]

export interface LongTailAsset {
  symbol: string
  name: string
  usd: number
  networks: string[]
  inactive: boolean
}

function pick(unit: number): string {
  const total = HOMES.reduce((sum, [, weight]) => sum + weight, 0)
  let target = unit * total
  for (const [network, weight] of HOMES) {
    target -= weight
    if (target < 0) return network
  }
  return 'ETH'
}

function symbolFor(prefix: string, suffix: string, taken: Set<string>): string {
  const base = (prefix.slice(0, 3) + suffix.slice(0, 1)).toUpperCase()
  const candidates = [base, prefix.toUpperCase().slice(0, 5), `${base}X`, `${base}2`, `${base}3`]
  return candidates.find((c) => !taken.has(c)) ?? `${base}${taken.size}`
}

export function longTailAssets(count: number): LongTailAsset[] {
  const next = seededUnits('sandbox-long-tail-v1')
  const names = new Set<string>()
  const symbols = new Set<string>()
  const assets: LongTailAsset[] = []
  while (assets.length < count) {
    const prefix = PREFIXES[Math.floor(next() * PREFIXES.length)] ?? 'Nova'
    const suffix = SUFFIXES[Math.floor(next() * SUFFIXES.length)] ?? 'Token'
    const name = `${prefix} ${suffix}`
    if (names.has(name)) continue
    names.add(name)
    const symbol = symbolFor(prefix, suffix, symbols)
    symbols.add(symbol)
    const spread = next()
    const homes = new Set([pick(next())])
    if (spread < 0.4) homes.add(pick(next()))
    if (spread < 0.12) homes.add(pick(next()))
    assets.push({
      symbol,
      name,
      usd: Number((10 ** (-5 + 7 * next())).toPrecision(4)),
      networks: [...homes],
      inactive: next() < 0.05,
    })
  }
  return assets
}
