// What a service worker shows for each event, from the message alone: a title and a body with the
// amounts, for the creation and every status, cut short when a symbol makes it long.
import t from 'tap'
import { pushMessageOf } from '../../src/push/message.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { pushGateway } from './setup.js'

t.test('each event has its title and body, with the amounts, and none is long', async (t) => {
  const gw = await pushGateway(t)
  const uuid = await gw.newOrder()
  const order = (await gw.app.inject({ url: `/api/v1/orders/${uuid}` })).json() as OrderEvent['order']
  const deposit = order.depositToken.symbol
  const settle = order.settleToken.symbol
  const of = (
    type: OrderEvent['type'],
    status: OrderEvent['status'],
    more: Partial<OrderEvent['order']> = {},
  ) =>
    pushMessageOf({
      type,
      orderId: uuid,
      status,
      previousStatus: null,
      timestamp: order.createdAt,
      order: { ...order, ...more, status },
    })

  t.match(of('order.created', 'AWAITING_USER_DEPOSIT'), {
    title: 'Order created',
    body: `Send ${order.intendedAmount} ${deposit} to swap for ${settle}.`,
  })
  const titles = [
    ['AWAITING_USER_DEPOSIT', 'Waiting for your deposit'],
    ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'Deposit received'],
    ['PROCESSING', 'Swap in progress'],
    ['COMPLETED', 'Swap completed'],
    ['ERROR', 'Swap failed'],
    ['TIMED_OUT', 'Order expired'],
  ] as const
  t.same(
    titles.map(([status]) => of('order.status_changed', status).title),
    titles.map(([, title]) => title),
  )
  t.match(of('order.status_changed', 'ERROR', { depositAmount: 2 }).body, `2 ${deposit}`)
  t.match(of('order.status_changed', 'ERROR', { depositAmount: null }).body, `of ${deposit} failed`)
  t.match(
    of('order.status_changed', 'AWAITING_USER_DEPOSIT', { intendedIsDeposit: false, intendedAmount: 7 }).body,
    `Send 7 ${settle} to`,
    'an amount meant to be received is in the settle token',
  )

  const long = 'X'.repeat(300)
  const clipped = of('order.status_changed', 'TIMED_OUT', {
    depositToken: { ...order.depositToken, symbol: long },
  }).body
  t.equal(clipped.length, 200, 'cut to 200 characters')
  t.ok(clipped.endsWith('…'))
})
