// The watch of a fleet (two apps on one Redis, one upstream): each order is held by one instance under
// a lease; a crashed holder's orders are taken over once its leases lapse, and whoever reports, each
// change is published once (a compare-and-set decides, not the lease). Each test has its own Redis.
import t from 'tap'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startPrivateRedis } from '../ops/private-redis.js'
import { createThrough, FAST, metric, record } from './recorder.js'
import { fleet, LEASE_MS, roundsSince, skip, statusEvents, watched } from './two-apps.js'

t.test(
  'a crashed holder: another instance takes over after the lease and reports what happened meanwhile',
  { skip },
  async (t) => {
    const redis = await startPrivateRedis(t)
    // The leases are Redis's and lapse in real time; the outbox's age is the apps' clock, moved below.
    const clock = fakeClock({ running: true })
    const [a, b] = await fleet(t, redis.url, 2, { clock })
    const seen = record(a!.app, b!.app)
    const { control } = a!.sandbox
    const { uuid } = await createThrough(a!.app, control)
    await seen.until('order.created', () => seen.events.length === 1)
    t.equal(await watched(a!.app), 1, 'the creator holds the order')
    t.equal(await watched(b!.app), 0)

    // A crash: the holder loses Redis, so it can neither renew nor give its lease back, then stops.
    a!.app.redis!.client.disconnect()
    await a!.app.close()
    control.deposit(uuid)
    await eventually('the other instance to take over', async () => (await watched(b!.app)) === 1, 10_000)
    await seen.until('the deposit reported', () => seen.events.length === 2)
    t.equal(await metric(b!.app, 'gateway_watch_takeovers_total'), 1)
    t.match(seen.events[1], {
      id: `${uuid}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`,
      previousStatus: 'AWAITING_USER_DEPOSIT',
    })
    control.confirm(uuid)
    await seen.until('the confirmations reported', () => seen.events.length === 3)
    // A lease on, an event not handed on would be published again by the next round.
    clock.advance(LEASE_MS)
    await roundsSince(b!.app, clock.now())
    t.same(seen.idsOf(uuid), [
      `${uuid}.created`,
      `${uuid}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`,
      `${uuid}.PROCESSING`,
    ])
  },
)

t.test('two instances that both believe they hold an order report each change once', { skip }, async (t) => {
  const redis = await startPrivateRedis(t)
  const clock = fakeClock({ running: true })
  // The first never renews in time: its lease lapses while it goes on following the order.
  const [a, b] = await fleet(t, redis.url, 2, {
    deps: [{ watchTuning: { ...FAST, renewMs: 60_000 } }],
    clock,
  })
  const seen = record(a!.app, b!.app)
  const { control } = a!.sandbox
  const { uuid } = await createThrough(a!.app, control)
  await eventually('the second to take the lapsed lease', async () => (await watched(b!.app)) === 1, 10_000)
  t.equal(await watched(a!.app), 1, 'the first still believes it holds the order')
  await eventually('both to follow it upstream', () => control.openStreams(uuid) === 2)

  // At least: a second report of a change shows in the list below.
  control.deposit(uuid)
  await seen.until('the deposit reported', () => seen.events.length >= 2)
  control.fail(uuid)
  await seen.until('the failure reported', () => seen.idsOf(uuid).includes(`${uuid}.ERROR`))
  // Each ends its watch once it has tried to report the failure, so a second report would be in by now.
  await eventually('both watches to end', async () => (await watched(a!.app)) + (await watched(b!.app)) === 0)
  clock.advance(LEASE_MS)
  await roundsSince(b!.app, clock.now())
  t.same(seen.idsOf(uuid), [
    `${uuid}.created`,
    `${uuid}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`,
    `${uuid}.ERROR`,
  ])
  t.equal(await statusEvents([a!.app, b!.app]), 2, 'counted once across the two instances')
})
