// One stream per wallet, fed by the watch: an order the user creates through the create route reaches
// the user's open stream as `order-created`, with nothing published by the test, and each status the
// sandbox then moves it to follows as `orders:status-update`, in order, once.
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { FAST } from '../watch/recorder.js'
import { walletGateway } from './setup.js'

t.test("the create route's order and each of its changes reach the user's open stream", async (t) => {
  const gw = await walletGateway(t, { watchTuning: FAST })
  const user = await gw.user()
  const stream = gw.follow(user.auth)
  await stream.until('the snapshot', () => stream.events.length === 1)
  t.same(stream.events[0]!.data.orders, [], 'no order yet')

  const order = await gw.createOrder(user.token)
  t.equal(order.userId, user.userId, "the order is the user's")
  await stream.until('order-created', () => stream.events.length === 2)
  t.match(stream.events[1], {
    type: 'order-created',
    data: { uuid: order.uuid, userId: user.userId, status: 'AWAITING_USER_DEPOSIT' },
  })

  const { control } = gw.sandbox
  await eventually('the watch follows the order upstream', () => control.openStreams(order.uuid) === 1)
  control.deposit(order.uuid)
  await stream.until('the deposit', () => stream.events.length === 3)
  control.confirm(order.uuid)
  await stream.until('the confirmations', () => stream.events.length === 4)
  control.complete(order.uuid)
  await stream.until('completion', () => stream.events.length === 5)
  t.same(
    stream.events.slice(2).map((e) => [e.type, e.data.orderId, e.data.status]),
    [
      ['orders:status-update', order.uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS'],
      ['orders:status-update', order.uuid, 'PROCESSING'],
      ['orders:status-update', order.uuid, 'COMPLETED'],
    ],
    'each change once, in order',
  )
  const metrics = await gw.app.metrics.registry.metrics()
  t.match(metrics, /^gateway_wallet_streams_open 1$/m)
  t.match(metrics, /^gateway_wallet_events_total 4$/m, "the creation and three changes in the user's log")
})
