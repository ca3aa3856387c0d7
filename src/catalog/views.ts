// What the filtered routes derive from a catalog version: the token subset a filter selects, its
// normalized key (the cache key of the serialised result), and the distinct chains.
import type { Blockchain, Token } from '../upstream/schemas.js'
import type { TokensQuery } from './schemas.js'

/** The filter in one canonical spelling (case folded, fixed order), or undefined for no filter. */
export function filterKey(filter: TokensQuery): string | undefined {
  // The unfiltered catalog (nearly every request) builds no URLSearchParams.
  const { tradable, network, symbol, q } = filter
  if (tradable === undefined && network === undefined && symbol === undefined && q === undefined)
    return undefined
  const key = new URLSearchParams()
  if (filter.tradable !== undefined) key.set('tradable', String(filter.tradable))
  if (filter.network !== undefined) key.set('network', filter.network.toLowerCase())
  if (filter.symbol !== undefined) key.set('symbol', filter.symbol.toLowerCase())
  if (filter.q !== undefined) key.set('q', filter.q.toLowerCase())
  return key.size === 0 ? undefined : key.toString()
}

/** The spec's rule for offering a token: active, on a chain that accepts deposits. */
export const isTradable = (token: Token): boolean => token.active && token.blockchain.depositsActive

export function selectTokens(tokens: readonly Token[], filter: TokensQuery): Token[] {
  const network = filter.network?.toLowerCase()
  const symbol = filter.symbol?.toLowerCase()
  const q = filter.q?.toLowerCase()
  return tokens.filter(
    (t) =>
      (filter.tradable === undefined || isTradable(t) === filter.tradable) &&
      (network === undefined || t.blockchain.network.toLowerCase() === network) &&
      (symbol === undefined || t.symbol.toLowerCase() === symbol) &&
      (q === undefined || t.symbol.toLowerCase().includes(q) || t.name.toLowerCase().includes(q)),
  )
}

/** Each chain once, as the first token on it carries it, in catalog order. */
export function distinctChains(tokens: readonly Token[]): Blockchain[] {
  const chains = new Map<number, Blockchain>()
  for (const t of tokens) if (!chains.has(t.blockchain.id)) chains.set(t.blockchain.id, t.blockchain)
  return [...chains.values()]
}
