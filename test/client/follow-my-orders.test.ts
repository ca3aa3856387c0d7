// followMyOrders: the user's orders typed (the snapshot, each order created, each status change),
// in token mode through an EventSource class that sends the Authorization header (as React Native's
// polyfills do); a lapsed session signed back in with the wallet the client holds and the stream
// opened again; a logout ends it with AUTH_REQUIRED.
import { EventSource } from 'eventsource'
import t from 'tap'
import type {
  CreatedOrder,
  EventSourceConstructor,
  GatewayProblem,
  MyOrdersHandlers,
  OrderHistoryItem,
  StatusUpdate,
} from 'swap-gateway-client'
import { eventually } from '../helpers/eventually.js'
import { orderBody } from '../helpers/picks.js'
import { orderEvent } from '../wallet-stream/setup.js'
import { clientGateway, walletProvider } from './setup.js'

/** An EventSource that sends `init.headers` on each connection, as react-native-sse does. */
const WithHeaders: EventSourceConstructor = class extends EventSource {
  constructor(url: string, init?: { withCredentials?: boolean; headers?: Record<string, string> }) {
    super(url, {
      withCredentials: init?.withCredentials ?? false,
      fetch: (input, more) => fetch(input, { ...more, headers: { ...more.headers, ...init?.headers } }),
    })
  }
}

function recorder() {
  const snapshots: OrderHistoryItem[][] = []
  const created: CreatedOrder[] = []
  const updates: StatusUpdate[] = []
  const problems: GatewayProblem[] = []
  const handlers: MyOrdersHandlers = {
    onSnapshot: (orders) => snapshots.push(orders),
    onCreated: (order) => created.push(order),
    onUpdate: (update) => updates.push(update),
    onError: (problem) => problems.push(problem),
  }
  return { snapshots, created, updates, problems, handlers }
}

t.test('the snapshot, each order created and each status change, typed', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client({ EventSource: WithHeaders })
  await client.signIn(walletProvider().provider)
  const first = await client.createOrder(orderBody(gw.p))
  const rec = recorder()
  const following = client.followMyOrders(rec.handlers)
  t.teardown(() => following.close())
  await eventually('the snapshot', () => rec.snapshots.length === 1)
  t.same(
    rec.snapshots[0]!.map((o) => o.uuid),
    [first.uuid],
  )

  const second = await client.createOrder(orderBody(gw.p))
  await gw.app.orderEvents.publish(orderEvent(second))
  await eventually('the created order', () => rec.created.length === 1)
  t.equal(rec.created[0]!.uuid, second.uuid)
  t.equal(rec.created[0]!.walletAddress, second.walletAddress)
  gw.control.deposit(second.uuid)
  await gw.app.orderEvents.publish(orderEvent(await client.getOrder(second.uuid), 'AWAITING_USER_DEPOSIT'))
  await eventually('the update', () => rec.updates.length === 1)
  t.match(rec.updates[0], { orderId: second.uuid, order: { uuid: second.uuid } })
  t.equal(rec.problems.length, 0)
})

t.test('a lapsed session is signed back in and the stream opened again', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client({ EventSource: WithHeaders })
  const wallet = walletProvider()
  const session = await client.signIn(wallet.provider)
  // Just before the lapse: the stream opens, then the gateway ends it when the session lapses.
  gw.advance(Date.parse(session.expiresAt) - gw.clock.now() - 500)
  const rec = recorder()
  const following = client.followMyOrders(rec.handlers)
  t.teardown(() => following.close())
  await eventually('a second snapshot, after signing again', () => rec.snapshots.length === 2, 10_000)
  t.equal(wallet.signatures(), 2, 'one more signature')
  t.equal(rec.problems.length, 0)
})

t.test('a logout ends the stream with AUTH_REQUIRED', async (t) => {
  const gw = await clientGateway(t, { env: { SSE_HEARTBEAT_MS: '100' } })
  const client = gw.client({ EventSource: WithHeaders })
  await client.signIn(walletProvider().provider)
  const rec = recorder()
  const following = client.followMyOrders(rec.handlers)
  t.teardown(() => following.close())
  await eventually('the snapshot', () => rec.snapshots.length === 1)
  await client.logout()
  await eventually('the problem', () => rec.problems.length === 1, 10_000)
  t.match(rec.problems[0], { code: 'AUTH_REQUIRED', method: 'followMyOrders' })
})
