// Orders of one sandbox instance and their lifecycle. Every status change goes through
// `transition`, which stamps the time and reports it once, so each transition yields exactly one
// stream event. Expiry is applied lazily on reads, on a timer, and when the clock is advanced; the
// unfunded orders wait in a heap by timeout, so it costs what is due, not the number of orders.
import { randomUUID } from 'node:crypto'
import { mintAddress, mintTxHash } from '../addresses/mint.js'
import type { Catalog } from '../catalog/catalog.js'
import type { Listing } from '../catalog/listing.js'
import type { SandboxClock } from '../clock.js'
import { InvalidTransitionError, UnknownEntityError } from '../control-errors.js'
import { swapLimits } from '../pricing/limits.js'
import { priceQuote } from '../pricing/quote.js'
import { toDecimals } from '../pricing/rounding.js'
import { tradePath } from '../pricing/trade-path.js'
import type { CreatedOrder, OrderStatus } from '../resources.js'
import { DueQueue } from './due-queue.js'

const ORDER_TIMEOUT_MS = 30 * 60 * 1000

export interface NewOrder {
  deposit: Listing
  settle: Listing
  receivingAddress: string
  intendedAmount: number
  intendedIsDeposit: boolean
  userId: string | null
}

export interface DepositDetails {
  amount?: number
  txHash?: string
}

export interface OrderEvents {
  /** Called once per status change, with the sandbox time of the change. */
  transition(order: CreatedOrder, at: number): void
  created?(order: CreatedOrder): void
}

const TERMINAL: readonly OrderStatus[] = ['COMPLETED', 'ERROR', 'TIMED_OUT']

export class OrderStore {
  private readonly byUuid = new Map<string, CreatedOrder>()
  private readonly expiries = new DueQueue()
  private nextId = 1

  constructor(
    private readonly clock: SandboxClock,
    private readonly catalog: Catalog,
    private readonly events: OrderEvents,
  ) {}

  create(input: NewOrder): CreatedOrder {
    const createdAt = this.clock.now()
    const limits = swapLimits(input.deposit, input.settle)
    const order: CreatedOrder = {
      id: this.nextId++,
      uuid: randomUUID(),
      status: 'AWAITING_USER_DEPOSIT',
      timeout: new Date(createdAt + ORDER_TIMEOUT_MS).toISOString(),
      intendedAmount: input.intendedAmount,
      intendedIsDeposit: input.intendedIsDeposit,
      initialQuote: initialQuote(input, limits.minimalAmount),
      depositTokenId: input.deposit.token.id,
      settleTokenId: input.settle.token.id,
      receivingAddress: input.receivingAddress,
      depositAmount: null,
      depositEstSettleAmount: null,
      settleAmount: null,
      minimalAmount: limits.minimalAmount,
      maximalAmount: limits.maximalAmount,
      exchange: 'CEX',
      senderDepositTx: null,
      exchangeWithdrawTx: null,
      exchangeWithdrawTxLink: null,
      tradePath: tradePath(input.deposit, input.settle),
      userId: input.userId,
      createdAt: new Date(createdAt).toISOString(),
      walletAddress: mintAddress(this.catalog.chainSpec(input.deposit.token.blockchainId).format),
    }
    this.byUuid.set(order.uuid, order)
    this.expiries.add(order, Date.parse(order.timeout))
    this.events.created?.(order)
    return order
  }

  find(uuid: string): CreatedOrder | undefined {
    this.expireDue()
    return this.byUuid.get(uuid)
  }

  all(): CreatedOrder[] {
    this.expireDue()
    return [...this.byUuid.values()]
  }

  /** Moves every unfunded order whose timeout has passed to TIMED_OUT; returns how many. */
  expireDue(): number {
    // Funded or expired since they were queued: nothing to do. The rest in creation order (their ids).
    const due = this.expiries
      .takeDue(this.clock.now())
      .filter((order) => order.status === 'AWAITING_USER_DEPOSIT')
      .sort((a, b) => a.id - b.id)
    for (const order of due) this.transition(order, 'TIMED_OUT')
    return due.length
  }

  deposit(uuid: string, details: DepositDetails = {}): CreatedOrder {
    const order = this.expect(uuid, ['AWAITING_USER_DEPOSIT'], 'deposit')
    const { deposit, settle } = this.listings(order)
    const amount = details.amount ?? this.expectedDeposit(order, deposit, settle)
    order.depositAmount = amount
    order.senderDepositTx =
      details.txHash ?? mintTxHash(this.catalog.chainSpec(deposit.token.blockchainId).format)
    order.depositEstSettleAmount = amount > 0 ? priceQuote(deposit, settle, amount, true).settleAmount : 0
    return this.transition(order, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
  }

  confirm(uuid: string): CreatedOrder {
    return this.transition(
      this.expect(uuid, ['AWAITING_USER_DEPOSIT_CONFIRMATIONS'], 'confirm'),
      'PROCESSING',
    )
  }

  /** Partial delivery while settling: no status change, hence no event. */
  progress(uuid: string, settleAmount: number): CreatedOrder {
    const order = this.expect(uuid, ['PROCESSING'], 'progress')
    order.settleAmount = settleAmount
    return order
  }

  complete(uuid: string, settleAmount?: number): CreatedOrder {
    const order = this.expect(uuid, ['PROCESSING'], 'complete')
    const settleChain = this.catalog.chainSpec(this.listings(order).settle.token.blockchainId)
    order.settleAmount = settleAmount ?? order.depositEstSettleAmount ?? order.settleAmount
    order.exchangeWithdrawTx = mintTxHash(settleChain.format)
    order.exchangeWithdrawTxLink = `${settleChain.explorerTx}${order.exchangeWithdrawTx}`
    return this.transition(order, 'COMPLETED')
  }

  fail(uuid: string): CreatedOrder {
    const order = this.expect(
      uuid,
      ['AWAITING_USER_DEPOSIT', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING'],
      'fail',
    )
    return this.transition(order, 'ERROR')
  }

  /** → TIMED_OUT now, as if its deposit window had run out: this order only, no clock moves. */
  expire(uuid: string): CreatedOrder {
    const order = this.expect(uuid, ['AWAITING_USER_DEPOSIT'], 'expire')
    order.timeout = new Date(this.clock.now()).toISOString()
    return this.transition(order, 'TIMED_OUT')
  }

  private transition(order: CreatedOrder, status: OrderStatus): CreatedOrder {
    order.status = status
    this.events.transition(order, this.clock.now())
    return order
  }

  private expect(uuid: string, from: readonly OrderStatus[], action: string): CreatedOrder {
    const order = this.find(uuid)
    if (!order) throw new UnknownEntityError(`Unknown order ${uuid}`)
    if (!from.includes(order.status)) {
      const terminal = TERMINAL.includes(order.status) ? ' (terminal)' : ''
      throw new InvalidTransitionError(
        `Cannot ${action} order ${uuid}: it is ${order.status}${terminal}; ${action} needs ${from.join(' or ')}`,
      )
    }
    return order
  }

  private listings(order: CreatedOrder): { deposit: Listing; settle: Listing } {
    const deposit = this.catalog.listing(order.depositTokenId)
    const settle = this.catalog.listing(order.settleTokenId)
    if (!deposit || !settle) throw new Error(`Order ${order.uuid} refers to tokens no longer in the catalog`)
    return { deposit, settle }
  }

  /** What a user following the order would send: the intent, or the minimum when the intent is unusable. */
  private expectedDeposit(order: CreatedOrder, deposit: Listing, settle: Listing): number {
    const intended = order.intendedIsDeposit
      ? order.intendedAmount
      : priceQuote(deposit, settle, Math.max(order.intendedAmount, 0), false).depositAmount
    return intended > 0 ? toDecimals(intended, deposit.token.decimals) : order.minimalAmount
  }
}

function initialQuote(input: NewOrder, minimalAmount: number): number {
  if (!(input.intendedAmount > 0)) return 0
  const quote = priceQuote(input.deposit, input.settle, input.intendedAmount, input.intendedIsDeposit)
  return quote.depositAmount < minimalAmount ? 0 : quote.settleAmount
}
