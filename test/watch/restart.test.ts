// The watch of a fleet that stops in order (two apps on one Redis, one upstream): an instance that
// stops gives its leases back so another takes its orders over at once, and a restart of every
// instance resumes every watch, each change reported once. Each test has its own Redis.
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { eventually } from '../helpers/eventually.js'
import { startPrivateRedis } from '../ops/private-redis.js'
import { createThrough, FAST, metric, record } from './recorder.js'
import { fleet, roundsSince, skip, statusEvents, watched } from './two-apps.js'

t.test('an instance that stops gives its leases back: another takes over at once', { skip }, async (t) => {
  const redis = await startPrivateRedis(t)
  // A lease far longer than the test waits: only the release can hand the order over.
  const long = { REDIS_URL: redis.url, WATCH_LEASE_MS: '60000' }
  const a = await startGateway(t, { env: long, deps: { watchTuning: FAST } })
  const b = await startGateway(t, {
    env: { ...long, UPSTREAM_URL: a.sandbox.url },
    deps: { watchTuning: FAST },
  })
  const seen = record(a.app, b.app)
  const { uuid } = await createThrough(a.app, a.sandbox.control)
  await seen.until('order.created', () => seen.events.length === 1)
  await a.app.close()
  await eventually('the other instance to take over', async () => (await watched(b.app)) === 1, 5_000)
  a.sandbox.control.deposit(uuid)
  await seen.until('the deposit reported', () => seen.events.length === 2)
  t.equal(await metric(b.app, 'gateway_watch_takeovers_total'), 1)
})

t.test('a restart of every instance resumes every watch', { skip }, async (t) => {
  const redis = await startPrivateRedis(t)
  // Leases far longer than the test: the watches resume because they were given back, not lapsed.
  const [a, b] = await fleet(t, redis.url, 2, { leaseMs: 60_000 })
  const first = record(a!.app, b!.app)
  const { control, url } = a!.sandbox
  const one = await createThrough(a!.app, control)
  const two = await createThrough(b!.app, control)
  await first.until('both created', () => first.events.length === 2)
  await Promise.all([a!.app.close(), b!.app.close()])

  control.deposit(one.uuid)
  control.fail(two.uuid)
  // The new instances report before anything here could subscribe to them: their metrics tell.
  const [c, d] = await fleet(t, redis.url, 2, { upstream: url, leaseMs: 60_000 })
  const apps = [c!.app, d!.app]
  await eventually('both changes reported', async () => (await statusEvents(apps)) === 2, 10_000)
  await eventually(
    'the failed order no longer watched',
    async () => (await watched(c!.app)) + (await watched(d!.app)) === 1,
  )
  // A whole round of each since: a second report or takeover would have come by its end.
  await roundsSince(c!.app, Date.now())
  t.equal(await statusEvents(apps), 2, 'each change once')
  t.equal((await watched(c!.app)) + (await watched(d!.app)), 1, 'the failed order is no longer watched')
  t.equal(
    (await metric(c!.app, 'gateway_watch_takeovers_total')) +
      (await metric(d!.app, 'gateway_watch_takeovers_total')),
    2,
    'both watches resumed',
  )
})
