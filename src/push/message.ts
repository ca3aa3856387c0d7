// What a push carries: the event, and a title and body a service worker shows as they are, without a
// fetch (the page may be closed). Short English, with the amounts; always well under the 3 KB a push
// message may hold (push services take 4 KB, and encryption adds its overhead).
import type { OrderEvent } from '../watch/order-event.js'
import { type Order, type OrderStatus, TERMINAL_STATUSES } from '../upstream/schemas.js'

export interface PushMessage {
  type: OrderEvent['type']
  orderId: string
  status: OrderStatus
  previousStatus: OrderStatus | null
  at: string
  title: string
  body: string
}

/** Texts are cut to this many characters: a symbol can be long, and the message must stay small. */
const TEXT_MAX = 200
const clip = (text: string) => (text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text)

const amount = (value: number | null | undefined, symbol: string) =>
  value === null || value === undefined ? symbol : `${value} ${symbol}`

function texts(event: Pick<OrderEvent, 'type' | 'status' | 'order'>): { title: string; body: string } {
  const order: Order = event.order
  const deposit = order.depositToken.symbol
  const settle = order.settleToken.symbol
  const intended = amount(order.intendedAmount, order.intendedIsDeposit ? deposit : settle)
  if (event.type === 'order.created')
    return {
      title: 'Order created',
      body: `Send ${amount(order.intendedAmount, deposit)} to swap for ${settle}.`,
    }
  switch (event.status) {
    case 'AWAITING_USER_DEPOSIT':
      return { title: 'Waiting for your deposit', body: `Send ${intended} to the order's deposit address.` }
    case 'AWAITING_USER_DEPOSIT_CONFIRMATIONS':
      return {
        title: 'Deposit received',
        body: `${amount(order.depositAmount, deposit)} received; waiting for confirmations.`,
      }
    case 'PROCESSING':
      return {
        title: 'Swap in progress',
        body: `Swapping ${amount(order.depositAmount, deposit)} to ${settle}.`,
      }
    case 'COMPLETED':
      return { title: 'Swap completed', body: `${amount(order.settleAmount, settle)} sent to your address.` }
    case 'ERROR':
      return { title: 'Swap failed', body: `The swap of ${amount(order.depositAmount, deposit)} failed.` }
    case 'TIMED_OUT':
      return { title: 'Order expired', body: `No deposit of ${deposit} arrived in time.` }
  }
}

export function pushMessageOf(
  event: Pick<OrderEvent, 'type' | 'orderId' | 'status' | 'previousStatus' | 'timestamp' | 'order'>,
): PushMessage {
  const { title, body } = texts(event)
  return {
    type: event.type,
    orderId: event.orderId,
    status: event.status,
    previousStatus: event.previousStatus,
    at: event.timestamp,
    title: clip(title),
    body: clip(body),
  }
}

export const isTerminal = (status: OrderStatus): boolean => TERMINAL_STATUSES.has(status)
