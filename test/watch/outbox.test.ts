// An event reported but not yet handed on (its listeners had not resolved) is kept, and published
// again once it is older than WATCH_LEASE_MS: by the same process when a listener failed, by another
// instance when the reporting one died. Listeners dedupe by event id; nothing is lost.
import t from 'tap'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { startPrivateRedis } from '../ops/private-redis.js'
import { createThrough, FAST } from './recorder.js'
import { skip } from './two-apps.js'

t.test('a listener that fails gets the event again, until it resolves', async (t) => {
  const { app, sandbox } = await startGateway(t, {
    env: { WATCH_LEASE_MS: '1000' },
    deps: { watchTuning: FAST },
  })
  const calls: string[] = []
  app.orderEvents.subscribe((event) => {
    calls.push(event.id)
    return calls.length === 1 ? Promise.reject(new Error('receiver away')) : Promise.resolve()
  })
  const { uuid } = await createThrough(app, sandbox.control)
  await eventually('the event again', () => calls.length === 2)
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  t.same(calls, [`${uuid}.created`, `${uuid}.created`], 'again once, then no more: it was handed on')
})

t.test(
  'an instance that dies before its listeners resolve: another publishes the event',
  { skip },
  async (t) => {
    const redis = await startPrivateRedis(t)
    const env = { REDIS_URL: redis.url, WATCH_LEASE_MS: '1000' }
    const a = await startGateway(t, { env, deps: { watchTuning: FAST } })
    const b = await startGateway(t, {
      env: { ...env, UPSTREAM_URL: a.sandbox.url },
      deps: { watchTuning: FAST },
    })
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
    await eventually('the other instance to publish it', () => onB.length === 1, 10_000)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    t.same(
      onB.map((e) => e.id),
      [`${uuid}.created`],
      'published once more, by the survivor',
    )
    t.same(onB[0], onA[0], 'the same event')
  },
)
