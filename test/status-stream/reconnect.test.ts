import t, { type Test } from 'tap'
import { systemClock } from '../../src/clock.js'
import { eventually } from '../helpers/eventually.js'
import { STATUS_EVENT } from '../helpers/sse.js'
import { READ_ROUTE, STREAM_ROUTE, streamGateway, subscribed } from './setup.js'

const HOUR = 60 * 60 * 1000
/** The sandbox's clock runs an hour behind ours: its ids and the gateway's read moments cannot be confused. */
const behind = { clock: { ...systemClock, now: () => Date.now() - HOUR } }
const upstreamStamped = (id: string) => Number(id) < Date.now() - HOUR / 2
const fastReopen = { stableMs: 100, reopenBaseMs: 20, reopenCapMs: 200, pollMs: 100 }

t.test(
  'with a short upstream idle close, no state is missed, not even one reached while the upstream link is down',
  async (t) => {
    const gw = await streamGateway(t, { sandbox: { ...behind, idleCloseMs: 150 }, tuning: fastReopen })
    const uuid = await gw.newOrder()
    const f = gw.follow(uuid)
    await f.until('the snapshot', () => f.events.length === 1)
    await eventually('several idle closes survived', () => gw.app.statusHub.stats().reconnects >= 3)
    t.equal(f.opens, 1, 'the client never noticed')

    gw.control.deposit(uuid)
    await f.until('the deposit', () => f.of(STATUS_EVENT).length === 1)

    // Cut the gateway's upstream link and move the order twice before it can reopen: the upstream
    // replays nothing, so only the gateway's re-read can tell the client.
    await subscribed(gw.control, uuid)
    t.equal(gw.control.closeStreams(uuid), 1)
    gw.control.confirm(uuid)
    gw.control.complete(uuid)
    await f.until('the final state, then the end', () => f.es.readyState === f.es.CLOSED)

    const updates = f.of(STATUS_EVENT)
    t.same(
      updates.map((e) => e.data.status),
      ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'COMPLETED'],
      'the current status is sent; the intermediate one was never observable',
    )
    const last = updates[1]
    t.notOk(upstreamStamped(last?.id ?? ''), 'a catch-up event carries the moment of the re-read')
    t.match(last?.data, {
      orderId: uuid,
      status: 'COMPLETED',
      message: 'order update',
      order: { status: 'COMPLETED' },
    })
    t.equal(last?.data.updatedAt, new Date(Number(last?.id.replace(/\.end$/, ''))).toISOString())
    t.equal(f.errors.at(-1)?.code, 204, 'and the browser stopped')
    t.equal(gw.app.statusHub.stats().upstreamSubscriptions, 0)
  },
)

/** A followed order whose upstream stream has just been closed and now cannot be reopened. */
async function streamDown(t: Test, pollMs: number) {
  const gw = await streamGateway(t, { sandbox: behind, tuning: { ...fastReopen, pollMs } })
  const uuid = await gw.newOrder()
  const f = gw.follow(uuid)
  await f.until('the snapshot', () => f.events.length === 1)
  await subscribed(gw.control, uuid)
  gw.control.fault(STREAM_ROUTE, {
    kind: 'status',
    status: 502,
    body: '<html>bad gateway</html>',
    count: 1e6,
  })
  gw.control.closeStreams(uuid)
  return { gw, uuid, f }
}

t.test(
  'while the upstream stream cannot be opened, the order is polled; once it can, polling stops',
  async (t) => {
    const { gw, uuid, f } = await streamDown(t, 50)
    await eventually('polling', () => gw.app.statusHub.stats().polls >= 3)
    t.equal(gw.app.statusHub.stats().polling, 1, 'one order on the polling fallback')
    gw.control.deposit(uuid)
    await f.until('the deposit, found by polling', () => f.of(STATUS_EVENT).length === 1)
    t.equal(f.of(STATUS_EVENT)[0]?.data.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
    t.equal(f.of(STATUS_EVENT)[0]?.data.order?.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')

    gw.control.clearFaults()
    await eventually('the stream reopened', () => gw.app.statusHub.stats().polling === 0)
    const polls = gw.app.statusHub.stats().polls
    gw.control.confirm(uuid)
    await f.until('the confirmation', () => f.of(STATUS_EVENT).length === 2)
    t.equal(gw.app.statusHub.stats().polls, polls, 'polling stopped')
    t.equal(f.opens, 1, 'the client stayed connected throughout')
  },
)

t.test('a transition after the upstream stream is back arrives as the upstream event itself', async (t) => {
  // One poll only (the immediate one): no poll can race the reopened stream to the next transition.
  const { gw, uuid, f } = await streamDown(t, 60_000)
  gw.control.deposit(uuid)
  await f.until('the deposit, found by the first poll', () => f.of(STATUS_EVENT).length === 1)
  t.notOk(upstreamStamped(f.of(STATUS_EVENT)[0]?.id ?? ''), 'a catch-up event: the upstream sent none')

  gw.control.clearFaults()
  await subscribed(gw.control, uuid)
  gw.control.confirm(uuid)
  await f.until('the confirmation', () => f.of(STATUS_EVENT).length === 2)
  t.ok(upstreamStamped(f.of(STATUS_EVENT)[1]?.id ?? ''), 'streamed again: the upstream event itself')
  t.equal(gw.app.statusHub.stats().polls, 1)
  t.equal(f.opens, 1, 'the client stayed connected throughout')
})

t.test('a reset or refused upstream stream is reopened with backoff, and nothing is lost', async (t) => {
  const gw = await streamGateway(t, { sandbox: behind, tuning: fastReopen })
  const uuid = await gw.newOrder()
  const f = gw.follow(uuid)
  await f.until('the snapshot', () => f.events.length === 1)
  await subscribed(gw.control, uuid)
  const opened = gw.control.requestsTo(STREAM_ROUTE).length

  gw.control.fault(STREAM_ROUTE, { kind: 'drop', count: 3 })
  gw.control.closeStreams(uuid)
  gw.control.deposit(uuid)
  await f.until('the deposit', () => f.of(STATUS_EVENT).length === 1)
  await subscribed(gw.control, uuid)
  t.equal(gw.control.requestsTo(STREAM_ROUTE).length, opened + 4, 'three dropped attempts, then a good one')
  gw.control.fail(uuid)
  await f.until('the end', () => f.es.readyState === f.es.CLOSED)
  t.same(
    f.of(STATUS_EVENT).map((e) => e.data.status),
    ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'ERROR'],
  )
})

t.test('an upstream stream that goes silent without closing is presumed dead and replaced', async (t) => {
  const gw = await streamGateway(t, {
    env: { SSE_HEARTBEAT_MS: '50' },
    tuning: { ...fastReopen, upstreamIdleMs: 200 },
  })
  const uuid = await gw.newOrder()
  const f = gw.follow(uuid)
  await f.until('the snapshot', () => f.events.length === 1)
  await eventually('replaced twice', () => gw.control.requestsTo(STREAM_ROUTE).length >= 3)
  t.equal(gw.control.openStreams(uuid) <= 1, true, 'the old connections were closed, not leaked')
  gw.control.deposit(uuid)
  await f.until('the deposit', () => f.of(STATUS_EVENT).length === 1)
})

t.test(
  'reopening the upstream stream while the circuit breaker probes does not leave the breaker stuck',
  async (t) => {
    const gw = await streamGateway(t, {
      sandbox: behind,
      // No polling in this window: the only call after the breaker's pause is a stream reopen.
      tuning: { ...fastReopen, pollMs: 60_000 },
      upstreamTuning: { breakerThreshold: 1, breakerOpenMs: 100, retries: 0 },
    })
    const uuid = await gw.newOrder()
    const f = gw.follow(uuid)
    await f.until('the snapshot', () => f.events.length === 1)
    await subscribed(gw.control, uuid)

    // Every read fails until the breaker is open. A read may still join one the hub started just
    // before (reads of one order are shared) and get its 200; the next one reaches the upstream.
    gw.control.fault(READ_ROUTE, { kind: 'error500' })
    await eventually('a read fails', async () =>
      [502, 503].includes((await gw.app.inject(`/api/v1/orders/${uuid}`)).statusCode),
    )
    t.not(gw.app.upstream.breaker.current, 'closed', 'one generic 500 opens the breaker')
    gw.control.clearFaults()
    gw.control.closeStreams(uuid)
    await eventually('the stream reopened after the pause', () => gw.control.openStreams(uuid) === 1)

    await eventually(
      'reads work again',
      async () => (await gw.app.inject(`/api/v1/orders/${uuid}`)).statusCode === 200,
    )
    gw.control.deposit(uuid)
    await f.until('the deposit', () => f.of(STATUS_EVENT).length === 1)
  },
)
