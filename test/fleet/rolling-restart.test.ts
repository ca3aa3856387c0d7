// A rolling restart of the whole fleet under light load, as a deploy does it: each instance in turn gets
// SIGTERM, exits, and its replacement joins the pool before the next one goes. About a hundred
// browsers (standard EventSource clients) follow orders that complete while the instances go down.
// Nothing may be lost: no failed request (the balancer retries nothing), every stream sees its
// order's final status, and every instance exits 0 within its shutdown phases.
import t from 'tap'
import { type Follower, follow, STATUS_EVENT, STATUS_EVENTS, type StatusData } from '../helpers/sse.js'
import { FLEET_ENV, fleetSkip, startFleet, terminate } from './fleet.js'
import { startLoad } from './load.js'

const STREAMS = 100
const GENEROUS = JSON.stringify(
  Object.fromEntries(
    ['catalog', 'pricing', 'orders', 'stream', 'global'].map((g) => [
      g,
      { max: 100_000, timeWindow: '1 minute' },
    ]),
  ),
)
/** The longest a SIGTERM may take: the ready delay, then the drain's deadline, and a process's exit. */
const PHASES_MS = Number(FLEET_ENV.SHUTDOWN_READY_DELAY_MS) + Number(FLEET_ENV.SHUTDOWN_TIMEOUT_MS)
const EXIT_SLACK_MS = 2000

const completed = (f: Follower<StatusData>) => f.of(STATUS_EVENT).some((e) => e.data.status === 'COMPLETED')

t.test(
  'a rolling restart under load fails no request and loses no final status',
  { skip: fleetSkip },
  async (t) => {
    const fleet = await startFleet(t, { env: { RATE_LIMITS: GENEROUS, SSE_MAX_PER_IP: '1000' } })
    const uuids = await fleet.processingOrders(STREAMS)
    const followers = new Map<string, Follower<StatusData>>()
    for (const uuid of uuids) {
      const url = `${fleet.url}/api/orders/${uuid}/status-stream`
      followers.set(uuid, follow<StatusData>(t, url, { events: STATUS_EVENTS }))
    }
    const all = [...followers.values()]
    await Promise.all(all.map((f) => f.until('the snapshot', () => f.events.length > 0, 30_000)))

    let next = 0
    const load = startLoad(fleet.url, () => {
      next++
      return next % 2 ? '/api/v1/tokens' : `/api/v1/orders/${uuids[next % uuids.length]}`
    })
    t.teardown(() => load.stop())

    // A third of the orders complete while each instance goes through its phases.
    const batches = [0, 1, 2].map((i) =>
      uuids.slice(Math.round((i * STREAMS) / 3), Math.round(((i + 1) * STREAMS) / 3)),
    )
    const exits: Array<{ name: string; code: number | null; ms: number }> = []
    for (const [i, instance] of fleet.instances.entries()) {
      const exited = terminate(instance)
      const batch = batches[i]!
      const spreadMs = PHASES_MS / 2
      const completions = batch.map(
        (uuid, k) =>
          new Promise<void>((resolve) =>
            setTimeout(
              () => {
                fleet.sandbox.control.complete(uuid)
                resolve()
              },
              (k * spreadMs) / batch.length,
            ),
          ),
      )
      const { code, ms } = await exited
      await Promise.all(completions)
      exits.push({ name: instance.name, code, ms })
      await instance.start()
      await fleet.balancer.until(instance.name, 'UP')
    }

    // A stream ends with its final status or with its client given up (a 204, an error it will not retry).
    await Promise.all(
      all.map((f) =>
        f
          .until('the final status', () => completed(f) || f.es.readyState === f.es.CLOSED, 30_000)
          .catch(() => {}),
      ),
    )
    await load.stop()
    for (const f of all) f.close()

    t.same(load.failures(), [], `no failed request among ${load.outcomes.length}`)
    t.ok(load.outcomes.length > 100, `the load ran throughout (${load.outcomes.length} requests)`)
    const missed = uuids.filter((uuid) => !completed(followers.get(uuid)!))
    t.same(
      missed.map((uuid) => ({
        uuid,
        events: followers.get(uuid)!.events.map((e) => `${e.type}:${e.data.status}`),
        errors: followers.get(uuid)!.errors,
      })),
      [],
      `every one of the ${STREAMS} streams saw ${STATUS_EVENT} COMPLETED`,
    )
    for (const exit of exits) {
      t.equal(exit.code, 0, `${exit.name} exits 0`)
      t.ok(exit.ms <= PHASES_MS + EXIT_SLACK_MS, `${exit.name} exits within its phases (${exit.ms} ms)`)
    }
  },
)
