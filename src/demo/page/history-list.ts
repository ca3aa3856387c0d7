/// <reference lib="dom" />
// The signed-in user's orders, newest first; choosing one follows it in the order panel.
import type { OrderHistoryItem } from 'swap-gateway-client'
import type { Alerts } from './alert.js'
import type { Client } from './client.js'
import { byId, el } from './dom.js'
import { amount, dateTime } from './format.js'

const PAGE_SIZE = 10

export class HistoryList {
  private readonly section = byId('history')
  private readonly list = byId('history-list')

  constructor(
    private readonly client: Client,
    private readonly alerts: Alerts,
    private readonly onOpen: (order: OrderHistoryItem) => void,
    /** Called after each load: a lapsed session may have been renewed by a new signature meanwhile. */
    private readonly afterLoad: () => Promise<void>,
  ) {
    byId('refresh-history').addEventListener('click', () => void this.load())
  }

  hide(): void {
    this.section.hidden = true
    this.list.replaceChildren()
  }

  async load(): Promise<void> {
    this.section.hidden = false
    try {
      const history = await this.client.listOrders({ current: 1, limit: PAGE_SIZE })
      this.alerts.clear('history')
      this.render(history.items)
    } catch (err) {
      this.alerts.show('history', err)
    }
    await this.afterLoad()
  }

  private render(items: OrderHistoryItem[]): void {
    if (items.length === 0) {
      this.list.replaceChildren(el('li', { class: 'muted' }, 'No orders yet.'))
      return
    }
    this.list.replaceChildren(
      ...items.map((order) => {
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
