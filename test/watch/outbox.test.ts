// An event reported but not yet handed on (its listeners had not resolved) is kept, and published
// again once it is older than WATCH_LEASE_MS: by the same process when a listener failed, by another
// instance when the reporting one died. Listeners dedupe by event id; nothing is lost.
import t from 'tap'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { startPrivateRedis } from '../ops/private-redis.js'
import { createThrough, FAST } from './recorder.js'
import { LEASE_MS, roundsSince, skip } from './two-apps.js'

const env = { WATCH_LEASE_MS: String(LEASE_MS) }

t.test('a listener that fails gets the event again, until it resolves', async (t) => {
  // Held still: the watch's rounds run as the test moves it, each (all in memory here) done before
  // the next timer, as advanceAsync lets the promises of each settle first.
  const clock = fakeClock()
  const { app, sandbox } = await startGateway(t, { env, deps: { clock, watchTuning: FAST } })
  const calls: string[] = []
  app.orderEvents.subscribe((event) => {
    calls.push(event.id)
    return calls.length === 1 ? Promise.reject(new Error('receiver away')) : Promise.resolve()
  })
  const { uuid } = await createThrough(app, sandbox.control)
  await eventually('the first call', () => calls.length === 1)
  await clock.advanceAsync(LEASE_MS - FAST.scanMs)
  t.equal(calls.length, 1, 'kept while younger than the lease')
  await clock.advanceAsync(FAST.scanMs)
  await eventually('the event again', () => calls.length === 2)
  // A lease and a round on: still in the outbox, it would have been published a third time.
  await clock.advanceAsync(LEASE_MS + FAST.scanMs)
  t.same(calls, [`${uuid}.created`, `${uuid}.created`], 'again once, then no more: it was handed on')
})

t.test(
  'an instance that dies before its listeners resolve: another publishes the event',
  { skip },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const shared = { ...env, REDIS_URL: redis.url }
    // One clock, moved past the outbox's lease; running, as Redis and the sandbox are real.
    const clock = fakeClock({ running: true })
    const deps = { clock, watchTuning: FAST }
    const a = await startGateway(t, { env: shared, deps })
    const b = await startGateway(t, { env: { ...shared, UPSTREAM_URL: a.sandbox.url }, deps })
    const onA: OrderEvent[] = []
    const onB: OrderEvent[] = []
    // A's hand-off never completes: the process dies first.
    a.app.orderEvents.subscribe((event) => {
      onA.push(event)
      return new Promise(() => {})
    })
    b.app.orderEvents.subscribe((event) => {
      onB.push(event)
      return Promise.resolve()
    })
    const { uuid } = await createThrough(a.app, a.sandbox.control)
    await eventually('the report on the creator', () => onA.length === 1)
    a.app.redis!.client.disconnect()
    await a.app.close()
    clock.advance(LEASE_MS)
    await eventually('the other instance to publish it', () => onB.length === 1)
    // A lease on, an event still in the outbox would be published again by the next round.
    clock.advance(LEASE_MS)
    await roundsSince(b.app, clock.now())
    t.same(
      onB.map((e) => e.id),
      [`${uuid}.created`],
      'published once more, by the survivor',
    )
    t.same(onB[0], onA[0], 'the same event')
  },
)
