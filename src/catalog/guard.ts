// The PairGuard of the pricing and order routes: a pair the catalog refuses never reaches the
// upstream (which would answer it with a 500 to be matched by text).
import { problems } from '../problems.js'
import type { PairGuard } from '../contracts/pair-and-credentials.js'
import type { CallContext } from '../upstream/client.js'
import type { Token } from '../upstream/schemas.js'
import type { CatalogCache } from './cache.js'
import type { CatalogVersion } from './version.js'

function known(version: CatalogVersion, side: 'deposit' | 'settle', tokenId: number): Token {
  const token = version.byId.get(tokenId)
  if (!token) throw problems.unknownToken(side, tokenId)
  return token
}

export class TokenGuard implements PairGuard {
  constructor(private readonly cache: CatalogCache) {}

  async checkPair(ctx: CallContext, depositTokenId: number, settleTokenId: number) {
    const trigger = { id: ctx.requestId, log: ctx.log }
    let { version } = await this.cache.read(trigger)
    if (!version.byId.has(depositTokenId) || !version.byId.has(settleTokenId)) {
      version = (await this.cache.refreshForUnknownId(trigger)) ?? version
    }
    const deposit = known(version, 'deposit', depositTokenId)
    const settle = known(version, 'settle', settleTokenId)
    const pair = { depositTokenId, settleTokenId }
    if (!deposit.active) throw problems.depositTokenInactive(pair)
    if (!deposit.blockchain.depositsActive) throw problems.depositsDisabled(pair, deposit.blockchain.network)
    if (!settle.active) throw problems.settleTokenInactive(pair)
    return { deposit, settle }
  }
}
