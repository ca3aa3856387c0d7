// The test-facing control object: drive orders through their lifecycle, move time, queue
// faults, read the request log, edit the catalog, and flip the sandbox-only auth switches.
// The same operations are exposed over HTTP under /__sandbox/ (routes/control.ts).

import type { NewToken } from './catalog/catalog.js'
import type { SandboxContext } from './context.js'
import type { Fault } from './faults.js'
import type { DepositDetails } from './orders/store.js'
import { detailsView } from './orders/views.js'
import type { RecordedRequest } from './recorder.js'
import type { Blockchain, OrderDetails, Token } from './resources.js'
import type { RouteKey } from './route-keys.js'

export interface SandboxControl {
  /** Every request received on spec routes, in order (a live array). */
  readonly requests: RecordedRequest[]
  clearRequests(): void
  requestsTo(route: RouteKey): RecordedRequest[]

  fault(route: RouteKey, fault: Fault): void
  clearFaults(): void

  /** AWAITING_USER_DEPOSIT → AWAITING_USER_DEPOSIT_CONFIRMATIONS. */
  deposit(uuid: string, details?: DepositDetails): OrderDetails
  /** → PROCESSING. */
  confirm(uuid: string): OrderDetails
  /** Updates settleAmount while PROCESSING; emits no event. */
  progress(uuid: string, settleAmount: number): OrderDetails
  /** → COMPLETED; settleAmount defaults to depositEstSettleAmount. */
  complete(uuid: string, settleAmount?: number): OrderDetails
  /** → ERROR from any non-terminal state. */
  fail(uuid: string): OrderDetails
  /** AWAITING_USER_DEPOSIT → TIMED_OUT now (its `timeout` set to now); the clock and other orders stay. */
  expire(uuid: string): OrderDetails
  /** Moves the sandbox clock forward and expires unfunded orders whose timeout has passed. */
  advanceTime(ms: number): void
  /** The sandbox clock (ms epoch). */
  now(): number
  orders(): OrderDetails[]
  order(uuid: string): OrderDetails | undefined

  openStreams(uuid?: string): number
  closeStreams(uuid?: string): number

  tokens(): Token[]
  addToken(fields: NewToken): Token
  setTokenActive(id: number, active: boolean): Token
  /** Sets a token's USD price (quotes are priced from it), so a test can show a price that moves. */
  setTokenPrice(id: number, usdPrice: number): { id: number; usdPrice: number }
  setDepositsActive(chainId: number, active: boolean): Blockchain

  setRefreshWorks(works: boolean): void
  issueAccessToken(address: string, chainId: string): string
  /** Every access token issued so far lapses now (as if its 15 minutes had run out); later ones do not. */
  lapseSessions(): void
  /** Whether the sandbox would still accept this access token (not lapsed, not past its `exp`). */
  isAccessTokenLive(accessToken: string): boolean
}

export function createControl(ctx: SandboxContext): SandboxControl {
  const view = (order: Parameters<typeof detailsView>[0]) => detailsView(order, ctx.catalog)
  return {
    get requests() {
      return ctx.requestLog.entries
    },
    clearRequests: () => ctx.requestLog.clear(),
    requestsTo: (route) => ctx.requestLog.to(route),

    fault: (route, fault) => ctx.faults.add(route, fault),
    clearFaults: () => ctx.faults.clear(),

    deposit: (uuid, details) => view(ctx.orders.deposit(uuid, details)),
    confirm: (uuid) => view(ctx.orders.confirm(uuid)),
    progress: (uuid, settleAmount) => view(ctx.orders.progress(uuid, settleAmount)),
    complete: (uuid, settleAmount) => view(ctx.orders.complete(uuid, settleAmount)),
    fail: (uuid) => view(ctx.orders.fail(uuid)),
    expire: (uuid) => view(ctx.orders.expire(uuid)),
    advanceTime(ms) {
      ctx.clock.jump(ms)
      ctx.orders.expireDue()
    },
    now: () => ctx.clock.now(),
    orders: () => ctx.orders.all().map(view),
    order(uuid) {
      const order = ctx.orders.find(uuid)
      return order && view(order)
    },

    openStreams: (uuid) => ctx.streams.count(uuid),
    closeStreams: (uuid) => ctx.streams.close(uuid),

    tokens: () => ctx.catalog.tokens(),
    addToken: (fields) => ctx.catalog.add(fields),
    setTokenActive: (id, active) => ctx.catalog.setActive(id, active),
    setTokenPrice: (id, usdPrice) => ctx.catalog.setPrice(id, usdPrice),
    setDepositsActive: (chainId, active) => ctx.catalog.setDepositsActive(chainId, active),

    setRefreshWorks(works) {
      ctx.switches.refreshWorks = works
    },
    issueAccessToken(address, chainId) {
      const user = ctx.users.forAddress(address)
      return ctx.accessTokens.issue(user.id, user.address, chainId)
    },
    lapseSessions: () => ctx.accessTokens.lapseAll(),
    isAccessTokenLive: (accessToken) => ctx.accessTokens.isLive(accessToken),
  }
}
