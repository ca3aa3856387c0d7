// The watch in one process (no REDIS_URL): an order created through the gateway is followed whether
// or not anyone is connected, and each change is published once on `orderEvents`, in order, until
// the order is terminal or WATCH_MAX_MS have passed.
import t from 'tap'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { upstreamOrder } from '../helpers/upstream-order.js'
import { follow, STATUS_EVENT, STATUS_EVENTS } from '../helpers/sse.js'
import { createThrough, FAST, metric, record } from './recorder.js'

t.test(
  'an order created through the gateway: created and each transition published once, in order',
  async (t) => {
    const { app, sandbox } = await startGateway(t, { deps: { watchTuning: FAST } })
    const seen = record(app)
    const { uuid } = await createThrough(app, sandbox.control)
    await seen.until('order.created', () => seen.idsOf(uuid).length === 1)
    t.equal(await metric(app, 'gateway_watched_orders'), 1, 'the order is watched')
    const created = seen.events[0]!
    t.match(created, {
      type: 'order.created',
      status: 'AWAITING_USER_DEPOSIT',
      previousStatus: null,
      userId: null,
    })
    t.equal(created.order.uuid, uuid, 'the event carries the order')

    await eventually('the upstream subscription', () => sandbox.control.openStreams(uuid) === 1)
    sandbox.control.deposit(uuid)
    await seen.until('the deposit', () => seen.idsOf(uuid).length === 2)
    sandbox.control.confirm(uuid)
    await seen.until('the confirmations', () => seen.idsOf(uuid).length === 3)
    sandbox.control.complete(uuid)
    await seen.until('completion', () => seen.idsOf(uuid).length === 4)
    await eventually('the watch to end', async () => (await metric(app, 'gateway_watched_orders')) === 0)

    t.same(seen.idsOf(uuid), [
      `${uuid}.created`,
      `${uuid}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`,
      `${uuid}.PROCESSING`,
      `${uuid}.COMPLETED`,
    ])
    t.same(
      seen.events.map((e) => e.previousStatus),
      [null, 'AWAITING_USER_DEPOSIT', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING'],
    )
    const last = seen.events[3]!
    t.equal(last.order.status, 'COMPLETED', "the last event's order is the one read after the change")
    t.ok(last.order.exchangeWithdrawTx, 'with its withdrawal hash')
    t.equal(await metric(app, 'gateway_order_events_total', '{type="order.status_changed"}'), 3)
    t.equal(await metric(app, 'gateway_order_events_total', '{type="order.created"}'), 1)
    await eventually('the upstream subscription to close', () => sandbox.control.openStreams(uuid) === 0)
  },
)

t.test('a replayed Idempotency-Key starts nothing new, even after the watch ended', async (t) => {
  const { app, sandbox } = await startGateway(t, { deps: { watchTuning: FAST } })
  const seen = record(app)
  const key = { 'idempotency-key': 'watch-replay-0001' }
  const first = await createThrough(app, sandbox.control, key)
  await seen.until('order.created', () => seen.events.length === 1)
  await eventually('the upstream subscription', () => sandbox.control.openStreams(first.uuid) === 1)
  sandbox.control.fail(first.uuid)
  await seen.until('the failure', () => seen.events.length === 2)
  await eventually('the watch to end', async () => (await metric(app, 'gateway_watched_orders')) === 0)

  const again = await createThrough(app, sandbox.control, key)
  t.same([again.uuid, again.replayed], [first.uuid, true], 'the second answer is the replay')
  // A creation is told before its answer is sent, and a watch counts from the moment it begins.
  t.equal(await metric(app, 'gateway_watched_orders'), 0, 'no watch began')
  t.same(
    seen.idsOf(first.uuid),
    [`${first.uuid}.created`, `${first.uuid}.ERROR`],
    'one watch, one event each',
  )
})

t.test('a watch ends after WATCH_MAX_MS, whatever the status', async (t) => {
  const clock = fakeClock({ running: true })
  const { app, sandbox, url } = await startGateway(t, {
    env: { WATCH_MAX_MS: '60000' },
    deps: { clock, watchTuning: FAST },
    listen: true,
  })
  const seen = record(app)
  const { uuid } = await createThrough(app, sandbox.control)
  await eventually('the upstream subscription', () => sandbox.control.openStreams(uuid) === 1)
  clock.advance(59_000)
  sandbox.control.deposit(uuid)
  await seen.until('the deposit, within the watch', () => seen.events.length === 2)
  clock.advance(1_000)
  await eventually('the watch to end', async () => (await metric(app, 'gateway_watched_orders')) === 0)
  await eventually('its upstream subscription to close', () => sandbox.control.openStreams(uuid) === 0)
  // A client's stream follows the order now: the feed tells its watchers, had the watch still been
  // one, in the same step as it sends the client the change.
  const stream = follow(t, `${url}/api/orders/${uuid}/status-stream`, { events: STATUS_EVENTS })
  await stream.until('the snapshot', () => stream.of('snapshot').length === 1)
  sandbox.control.confirm(uuid)
  await stream.until('the change, on the client stream', () => stream.of(STATUS_EVENT).length === 1)
  stream.close()
  t.equal(seen.events.length, 2, 'a change after the watch ended is not reported')
})

t.test('a status stream and the watch share the one upstream subscription', async (t) => {
  const { app, sandbox, url } = await startGateway(t, { listen: true, deps: { watchTuning: FAST } })
  const seen = record(app)
  const { uuid } = await createThrough(app, sandbox.control)
  await eventually('the watch to subscribe', () => sandbox.control.openStreams(uuid) === 1)
  const stream = follow(t, `${url}/api/orders/${uuid}/status-stream`, { events: STATUS_EVENTS })
  await stream.until('the snapshot', () => stream.of('snapshot').length === 1)
  sandbox.control.deposit(uuid)
  // The change reaches the client through an upstream stream: one of its own would be open by now.
  await stream.until('the deposit, on the client stream', () => stream.of(STATUS_EVENT).length === 1)
  t.equal(sandbox.control.openStreams(uuid), 1, 'one upstream stream for the watch and the client')
  t.equal(await metric(app, 'gateway_upstream_subscriptions'), 1)
  await seen.until('the deposit', () => seen.events.length === 2)
  stream.close()
  await eventually('the client to leave', async () => (await metric(app, 'gateway_streams_open')) === 0)
  t.equal(sandbox.control.openStreams(uuid), 1, 'the watch keeps following once the client has gone')
  sandbox.control.confirm(uuid)
  await seen.until('the confirmations', () => seen.events.length === 3)
})

t.test('orderWatch.follow watches an order created elsewhere: its changes, not its creation', async (t) => {
  const { app, sandbox } = await startGateway(t, { deps: { watchTuning: FAST } })
  const seen = record(app)
  const uuid = await upstreamOrder(sandbox, TEST_TENANT_KEY)
  await app.orderWatch.follow(uuid)
  await app.orderWatch.follow(uuid)
  await eventually('the upstream subscription', () => sandbox.control.openStreams(uuid) === 1)
  t.equal(await metric(app, 'gateway_watched_orders'), 1, 'followed twice, watched once')
  sandbox.control.expire(uuid)
  await seen.until('the expiry', () => seen.events.length === 1)
  t.match(seen.events, [{ id: `${uuid}.TIMED_OUT`, previousStatus: 'AWAITING_USER_DEPOSIT' }])
  await eventually('the watch to end', async () => (await metric(app, 'gateway_watched_orders')) === 0)
})
