/// <reference lib="dom" />
// The signed-in user's orders, newest first, kept live by the wallet stream: its snapshot, then each
// order the user creates (on any device) and each status change; choosing one follows it in the order
// panel.
import type { FollowingMyOrders, OrderHistoryItem, StatusUpdate } from 'swap-gateway-client'
import type { Alerts } from './alert.js'
import type { Client } from './client.js'
import { byId, el } from './dom.js'
import { amount, dateTime } from './format.js'

const PAGE_SIZE = 10

export class HistoryList {
  private readonly section = byId('history')
  private readonly list = byId('history-list')
  private following: FollowingMyOrders | undefined
  private items: OrderHistoryItem[] = []

  constructor(
    private readonly client: Client,
    private readonly alerts: Alerts,
    private readonly onOpen: (order: OrderHistoryItem) => void,
    /** Called on each snapshot and at the stream's end: the session may have been renewed or ended. */
    private readonly sessionMoved: () => Promise<void>,
  ) {
    byId('refresh-history').addEventListener('click', () => this.follow())
  }

  hide(): void {
    this.following?.close()
    this.following = undefined
    this.section.hidden = true
    this.list.replaceChildren()
  }

  /** Opens (or reopens, with a fresh snapshot) the stream of the user's orders. */
  follow(): void {
    this.section.hidden = false
    this.following?.close()
    this.following = this.client.followMyOrders({
      onSnapshot: (orders) => {
        this.alerts.clear('history')
        this.items = orders
        this.render()
        void this.sessionMoved()
      },
      onCreated: (order) => this.upsert(order),
      onUpdate: (update) => this.updated(update),
      onError: (problem) => {
        this.following = undefined
        this.alerts.show('history', problem)
        void this.sessionMoved()
      },
    })
  }

  /** An order the page knows of (created here): shown at once, whatever the stream says later. */
  upsert(order: OrderHistoryItem): void {
    const at = this.items.findIndex((o) => o.uuid === order.uuid)
    if (at === -1) this.items = [order, ...this.items].slice(0, PAGE_SIZE)
    else this.items[at] = { ...this.items[at], ...order }
    this.render()
  }

  private updated(update: StatusUpdate): void {
    if (update.order) return this.upsert(update.order)
    const known = this.items.find((o) => o.uuid === update.orderId)
    if (known) this.upsert({ ...known, status: update.status })
  }

  private render(): void {
    if (this.items.length === 0) {
      this.list.replaceChildren(el('li', { class: 'muted' }, 'No orders yet.'))
      return
    }
    this.list.replaceChildren(
      ...this.items.map((order) => {
        const from = order.depositToken?.symbol ?? `#${order.depositTokenId}`
        const to = order.settleToken?.symbol ?? `#${order.settleTokenId}`
        const open = el(
          'button',
          { type: 'button', 'data-uuid': order.uuid },
          el('span', { class: 'pair' }, `${amount(order.intendedAmount, from)} → ${to}`),
          el('span', { class: 'state' }, order.status),
          el('span', { class: 'when' }, dateTime(order.createdAt)),
        )
        open.addEventListener('click', () => this.onOpen(order))
        return el('li', {}, open)
      }),
    )
  }
}
