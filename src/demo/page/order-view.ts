/// <reference lib="dom" />
// One order, followed live through the status stream: its status (role="status"), the deposit
// address with the bounds and a countdown to `timeout`, and the final amounts with the withdrawal link.
import type { Following, Order, OrderStatus } from 'swap-gateway-client'

/** An order as the page may first get it: from history, without its deposit address. */
export type ShownOrder = Omit<Order, 'walletAddress'> & { walletAddress?: string }
import type { Alerts } from './alert.js'
import type { Client } from './client.js'
import { byId, el } from './dom.js'
import { amount, dateTime, duration } from './format.js'
import type { NotifyMe } from './notify-me.js'
import type { SandboxPanel } from './sandbox-panel.js'

const STATUS_TEXT: Record<OrderStatus, string> = {
  AWAITING_USER_DEPOSIT: 'Waiting for your deposit',
  AWAITING_USER_DEPOSIT_CONFIRMATIONS: 'Deposit seen, waiting for confirmations',
  PROCESSING: 'Swapping',
  COMPLETED: 'Completed: the tokens are on their way to you',
  ERROR: 'The swap failed',
  TIMED_OUT: 'Expired: no deposit arrived in time',
}
const STEPS: Array<[string, OrderStatus]> = [
  ['Deposit', 'AWAITING_USER_DEPOSIT'],
  ['Confirm', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS'],
  ['Swap', 'PROCESSING'],
  ['Done', 'COMPLETED'],
]

/** Where the page keeps the uuid of the order it shows, so a reload (or a new visit) brings it back. */
const SHOWN_ORDER_KEY = 'swap-demo:order'

/** localStorage, which a browser may refuse (private modes, storage turned off): then nothing is kept. */
const kept = {
  get: (): string | null => {
    try {
      return localStorage.getItem(SHOWN_ORDER_KEY)
    } catch {
      return null
    }
  },
  set: (uuid: string | null): void => {
    try {
      if (uuid === null) localStorage.removeItem(SHOWN_ORDER_KEY)
      else localStorage.setItem(SHOWN_ORDER_KEY, uuid)
    } catch {
      // Not kept: a reload will not bring the order back, nothing else changes.
    }
  },
}

/** Only http(s) links become anchors: the link comes from the swap service, not from us. */
const isWebLink = (link: string | null): link is string => link !== null && /^https?:\/\//i.test(link)

export class OrderView {
  private readonly section = byId('order')
  private readonly status = byId('status')
  private readonly steps = byId('steps')
  private readonly deposit = byId('deposit')
  private readonly details = byId('order-details')
  private following: Following | undefined
  private order: ShownOrder | undefined
  private countdown: HTMLElement | undefined

  constructor(
    private readonly client: Client,
    private readonly alerts: Alerts,
    private readonly sandbox: SandboxPanel | undefined,
    private readonly notify: NotifyMe,
  ) {
    setInterval(() => this.tick(), 1000)
  }

  /**
   * The order shown before the page was reloaded (mid-swap: its deposit address and countdown), read
   * again and followed; one the gateway no longer knows is forgotten.
   */
  async resume(): Promise<void> {
    const uuid = kept.get()
    if (uuid === null || this.order) return
    try {
      const order = await this.client.getOrder(uuid)
      if (!this.order) this.show(order)
    } catch (err) {
      const code = (err as { code?: string }).code
      if (code === 'ORDER_NOT_FOUND' || code === 'INVALID_ORDER_ID') kept.set(null)
      else this.alerts.show('stream', err)
    }
  }

  /** The order a link or a notification names, read and shown in place of any other. */
  async open(uuid: string): Promise<void> {
    try {
      this.show(await this.client.getOrder(uuid))
    } catch (err) {
      this.alerts.show('stream', err)
    }
  }

  /** Shows the order at once and follows its status to the end. */
  show(order: ShownOrder): void {
    kept.set(order.uuid)
    this.following?.close()
    this.order = undefined
    this.render(order)
    this.section.hidden = false
    this.section.scrollIntoView({ behavior: 'smooth', block: 'nearest' })
    this.following = this.client.followOrder(order.uuid, {
      onSnapshot: (snapshot) => this.render(snapshot),
      onUpdate: (update) => (update.order ? this.render(update.order) : this.renderStatus(update.status)),
      onEnd: (final) => this.render(final),
      onError: (problem) => this.alerts.show('stream', problem),
    })
  }

  private render(next: ShownOrder): void {
    // History items and stream updates may lack the deposit address or the tokens: keep what we had.
    const same = this.order?.uuid === next.uuid ? this.order : undefined
    const order: ShownOrder = { ...same, ...next }
    for (const key of ['walletAddress', 'depositToken', 'settleToken'] as const) {
      if (order[key] === undefined && same?.[key] !== undefined) Object.assign(order, { [key]: same[key] })
    }
    this.order = order
    this.alerts.clear('stream')
    this.renderStatus(order.status)
    this.renderDeposit(order)
    this.renderDetails(order)
    this.sandbox?.showFor(order)
    this.notify.showFor(order)
  }

  private renderStatus(status: OrderStatus): void {
    this.status.className = `status${status === 'COMPLETED' ? ' done' : status === 'ERROR' || status === 'TIMED_OUT' ? ' failed' : ''}`
    this.status.replaceChildren(
      el('span', { class: 'badge' }, status),
      el('span', { class: 'text' }, STATUS_TEXT[status]),
    )
    const at = STEPS.findIndex(([, s]) => s === status)
    this.steps.hidden = at < 0
    this.steps.replaceChildren(
      ...STEPS.map(([name], i) =>
        el('li', { class: i < at || status === 'COMPLETED' ? 'done' : i === at ? 'current' : '' }, name),
      ),
    )
  }

  private renderDeposit(order: ShownOrder): void {
    this.countdown = undefined
    if (order.status !== 'AWAITING_USER_DEPOSIT' || !order.walletAddress) {
      this.deposit.replaceChildren()
      return
    }
    const token = order.depositToken
    const symbol = token?.symbol ?? ''
    const copy = el('button', { type: 'button', class: 'small' }, 'Copy')
    const address = order.walletAddress
    copy.addEventListener('click', () => {
      void navigator.clipboard?.writeText(address).then(() => (copy.textContent = 'Copied'))
    })
    this.countdown = el('span', { class: 'countdown' })
    this.deposit.replaceChildren(
      el(
        'p',
        {},
        `Send between ${amount(order.minimalAmount, symbol)} and ${amount(order.maximalAmount, symbol)}`,
        token ? ` on ${token.blockchain.name}` : '',
        ' to:',
      ),
      el('div', { class: 'address' }, el('code', {}, address), copy),
      el('p', {}, 'Expires in ', this.countdown, ` (${dateTime(order.timeout)}).`),
    )
    this.tick()
  }

  private tick(): void {
    if (!this.countdown || !this.order) return
    const left = Date.parse(this.order.timeout) - Date.now()
    this.countdown.textContent = left > 0 ? duration(left) : 'now'
  }

  private renderDetails(order: ShownOrder): void {
    const from = order.depositToken?.symbol
    const to = order.settleToken?.symbol
    const link = order.exchangeWithdrawTxLink
    const rows: Array<[string, Node | string] | false> = [
      ['Order', el('code', {}, order.uuid)],
      ['Pair', from && to ? `${from} → ${to}` : `${order.depositTokenId} → ${order.settleTokenId}`],
      ['You send', amount(order.intendedAmount, from)],
      ['Quoted', amount(order.initialQuote, to)],
      order.depositAmount !== null && ['Deposited', amount(order.depositAmount, from)],
      order.settleAmount !== null && ['Received', amount(order.settleAmount, to)],
      ['To', el('code', {}, order.receivingAddress)],
      order.senderDepositTx !== null && ['Deposit tx', el('code', {}, order.senderDepositTx)],
      isWebLink(link) && [
        'Withdrawal',
        el('a', { href: link, target: '_blank', rel: 'noopener noreferrer' }, 'View the withdrawal'),
      ],
      ['Created', dateTime(order.createdAt)],
    ]
    this.details.replaceChildren(
      ...rows.flatMap((row) => (row ? [el('dt', {}, row[0]), el('dd', {}, row[1])] : [])),
    )
  }
}
