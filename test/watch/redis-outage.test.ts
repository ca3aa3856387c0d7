// The watch with REDIS_URL when Redis goes quiet, and for an order it only follows: an order created
// elsewhere is followed from its status then (its baseline, kept in Redis), and a change that comes
// while Redis does not answer is reported once, after it answers again.
import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { upstreamOrder } from '../helpers/upstream-order.js'
import { startPrivateRedis } from '../ops/private-redis.js'
import { FAST, metric, record } from './recorder.js'
import { skip } from './two-apps.js'

/** A gateway on a Redis of the test's own, following an order created at the upstream directly. */
async function following(t: Test, env: Record<string, string> = {}) {
  const redis = await startPrivateRedis(t)
  const { app, sandbox } = await startGateway(t, {
    env: { REDIS_URL: redis.url, ...env },
    deps: { watchTuning: FAST },
  })
  const seen = record(app)
  const uuid = await upstreamOrder(sandbox, TEST_TENANT_KEY)
  await app.orderWatch.follow(uuid)
  await eventually('the upstream subscription', () => sandbox.control.openStreams(uuid) === 1)
  return { redis, app, control: sandbox.control, seen, uuid }
}

t.test(
  'with REDIS_URL an order followed from elsewhere reports its changes, not its creation',
  { skip },
  async (t) => {
    const { control, seen, uuid } = await following(t)
    control.expire(uuid)
    await seen.until('the expiry', () => seen.events.length === 1)
    t.match(seen.events, [{ id: `${uuid}.TIMED_OUT`, previousStatus: 'AWAITING_USER_DEPOSIT' }])
  },
)

t.test(
  'a change while Redis does not answer is reported once, after it answers again',
  { skip },
  async (t) => {
    // The lease outlasts the outage: the order stays this instance's.
    const { redis, app, control, seen, uuid } = await following(t, {
      REDIS_COMMAND_TIMEOUT_MS: '300',
      WATCH_LEASE_MS: '60000',
    })
    redis.pause()
    await eventually('redis seen down', () => app.redis?.up === false)
    control.deposit(uuid)
    redis.resume()
    await seen.until('the deposit reported', () => seen.events.length === 1, 15_000)
    control.confirm(uuid)
    await seen.until('the next change', () => seen.events.length === 2)
    t.same(
      seen.events.map((e) => e.id),
      [`${uuid}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`, `${uuid}.PROCESSING`],
      'each change once, in order',
    )
    t.equal(await metric(app, 'gateway_order_events_total', '{type="order.status_changed"}'), 2)
  },
)
