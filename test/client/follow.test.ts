// followOrder: the snapshot and every update delivered typed, the end reached by itself at a terminal
// status with the final order and no reconnect after it, and a stream that cannot open as a problem.
import t, { type Test } from 'tap'
import type { FollowHandlers, GatewayProblem, Order, Snapshot, StatusUpdate } from 'swap-gateway-client'
import { eventually } from '../helpers/eventually.js'
import { orderBody } from '../helpers/picks.js'
import { subscribed } from '../status-stream/setup.js'
import { clientGateway, countingEventSource, pastReconnects } from './setup.js'

const HOUR = 60 * 60_000

/** Handlers that record what they are given, in order. */
function recorder() {
  const seen: Array<
    | { kind: 'snapshot'; order: Snapshot }
    | { kind: 'update'; update: StatusUpdate }
    | { kind: 'end'; order: Order }
    | { kind: 'error'; problem: GatewayProblem }
  > = []
  const handlers: FollowHandlers = {
    onSnapshot: (order) => seen.push({ kind: 'snapshot', order }),
    onUpdate: (update) => seen.push({ kind: 'update', update }),
    onEnd: (order) => seen.push({ kind: 'end', order }),
    onError: (problem) => seen.push({ kind: 'error', problem }),
  }
  const kinds = () => seen.map((s) => s.kind)
  const has = (kind: string, n = 1) =>
    eventually(`${n} ${kind}`, () => kinds().filter((k) => k === kind).length >= n)
  return { seen, handlers, kinds, has }
}

async function followNewOrder(t: Test) {
  const gw = await clientGateway(t)
  const counting = countingEventSource()
  const client = gw.client({ EventSource: counting.EventSource })
  const order = await client.createOrder(orderBody(gw.p))
  const rec = recorder()
  const following = client.followOrder(order.uuid, rec.handlers)
  t.teardown(() => following.close())
  await rec.has('snapshot')
  await subscribed(gw.control, order.uuid)
  return { gw, client, order, rec, counting }
}

t.test('followOrder delivers the snapshot and every update, and ends itself at COMPLETED', async (t) => {
  const { gw, order, rec, counting } = await followNewOrder(t)
  const first = rec.seen[0]
  t.equal(first?.kind === 'snapshot' && first.order.uuid, order.uuid, 'the snapshot is the order')

  gw.control.deposit(order.uuid)
  await rec.has('update', 1)
  gw.control.confirm(order.uuid)
  await rec.has('update', 2)
  gw.control.complete(order.uuid)
  await rec.has('end')

  t.same(rec.kinds(), ['snapshot', 'update', 'update', 'update', 'end'])
  const updates = rec.seen.flatMap((s) => (s.kind === 'update' ? [s.update] : []))
  t.same(
    updates.map((u) => u.status),
    ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING', 'COMPLETED'],
  )
  t.ok(
    updates.every((u) => u.orderId === order.uuid && u.order?.status === u.status),
    'each with its order',
  )
  const end = rec.seen.at(-1)
  t.equal(end?.kind === 'end' && end.order.status, 'COMPLETED', 'onEnd gets the final order')
  t.ok(end?.kind === 'end' && end.order.exchangeWithdrawTxLink, 'with its withdrawal link')

  await pastReconnects(t, counting.connections[0]!)
  t.equal(counting.connections.length, 1, 'no reconnect after the end')
  t.equal(rec.seen.length, 5, 'nothing after the end')
})

t.test('followOrder ends at ERROR with the failed order', async (t) => {
  const { gw, order, rec, counting } = await followNewOrder(t)
  gw.control.fail(order.uuid)
  await rec.has('end')
  t.same(rec.kinds(), ['snapshot', 'update', 'end'])
  const end = rec.seen.at(-1)
  t.equal(end?.kind === 'end' && end.order.status, 'ERROR')
  await pastReconnects(t, counting.connections[0]!)
  t.equal(counting.connections.length, 1, 'no reconnect after the end')
})

t.test('followOrder ends at TIMED_OUT when the order expires unfunded', async (t) => {
  const { gw, rec, counting } = await followNewOrder(t)
  gw.control.advanceTime(2 * HOUR)
  await rec.has('end')
  const end = rec.seen.at(-1)
  t.equal(end?.kind === 'end' && end.order.status, 'TIMED_OUT')
  await pastReconnects(t, counting.connections[0]!)
  t.equal(counting.connections.length, 1, 'no reconnect after the end')
})

t.test('following an order that is already over ends with its snapshot', async (t) => {
  const gw = await clientGateway(t)
  const counting = countingEventSource()
  const client = gw.client({ EventSource: counting.EventSource })
  const { uuid } = await client.createOrder(orderBody(gw.p))
  gw.control.fail(uuid)
  const rec = recorder()
  client.followOrder(uuid, rec.handlers)
  await rec.has('end')
  t.same(rec.kinds(), ['snapshot', 'end'])
  const end = rec.seen.at(-1)
  t.equal(end?.kind === 'end' && end.order.status, 'ERROR', 'the snapshot is the final order')
  await pastReconnects(t, counting.connections[0]!)
  t.equal(counting.connections.length, 1, 'no reconnect after the end')
})

t.test('a stream that cannot open reaches onError as the problem of the order', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client()
  for (const [uuid, code] of [
    ['7b0e8d3e-5f7c-4a5e-9d8b-2f3c4d5e6f70', 'ORDER_NOT_FOUND'],
    ['not-a-uuid', 'INVALID_ORDER_ID'],
  ]) {
    const rec = recorder()
    client.followOrder(uuid!, rec.handlers)
    await rec.has('error')
    const [only] = rec.seen
    t.equal(rec.seen.length, 1, `${code}: only the error`)
    t.equal(only?.kind === 'error' && only.problem.code, code)
  }
})

t.test('a stream refused while the order reads fine is STREAM_UNAVAILABLE', async (t) => {
  const gw = await clientGateway(t, { env: { SSE_MAX_PER_IP: '1' } })
  const client = gw.client()
  const { uuid } = await client.createOrder(orderBody(gw.p))
  const first = recorder()
  const following = client.followOrder(uuid, first.handlers)
  t.teardown(() => following.close())
  await first.has('snapshot')
  const second = recorder()
  client.followOrder(uuid, second.handlers)
  await second.has('error')
  const [only] = second.seen
  t.equal(only?.kind === 'error' && only.problem.code, 'STREAM_UNAVAILABLE')
  t.equal(only?.kind === 'error' && only.problem.retryable, true)
  t.equal(only?.kind === 'error' && only.problem.status, 429, 'the status, where the EventSource tells it')
})

t.test('close() stops following: no handler is called afterwards', async (t) => {
  const { gw, order, rec, counting } = await followNewOrder(t)
  const before = rec.seen.length
  // Closed from the test's side: the recorder's following is closed in teardown, so close a second one.
  const second = recorder()
  const client = gw.client({ EventSource: counting.EventSource })
  const following = client.followOrder(order.uuid, second.handlers)
  await second.has('snapshot')
  const streams = () => gw.app.statusHub.stats().openStreams
  t.equal(streams(), 2, 'both streams open')
  following.close()
  // Once the gateway has let it go, nothing more can come on that stream, and a closed one never reconnects.
  await eventually('the gateway to see the closed one leave', () => streams() === 1)
  gw.control.deposit(order.uuid)
  await rec.has('update')
  t.same(second.kinds(), ['snapshot'], 'the closed one heard nothing more')
  t.equal(rec.seen.length, before + 1, 'the open one did')
  t.equal(counting.connections.length, 2, 'and neither reconnected')
})
