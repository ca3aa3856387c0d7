// Orders followed by the fleet while no one is connected: three production instances behind haproxy on
// one Redis watch the orders created through them and POST each order event, signed, to the operator's
// receiver (a local double that verifies with the reference `standardwebhooks` verifier). Each event
// reaches the receiver once, in order per order, when the instance holding a watch is killed, and when
// every instance restarts with deliveries pending.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import { orderBody, picks } from '../helpers/picks.js'
import { type Fleet, fleetSkip, startFleet, terminate } from './fleet.js'

const SECRET = `whsec_${randomBytes(32).toString('base64')}`
const LEASE_MS = 2_000

interface Received {
  id: string
  type: string
  orderId: string
  status: string
}

/** The operator's receiver: verifies every delivery, answers `answer()` (200 once it acknowledges). */
async function startReceiver(t: Test) {
  const verifier = new Webhook(SECRET)
  const acknowledged: Received[] = []
  const refused: string[] = []
  const state = { status: 200 }
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
  const server = createServer(async (req, res) => {
    const body = await read(req)
    let event: { type: string; data: { order: { uuid: string }; status: string } }
    try {
      event = verifier.verify(body, req.headers as Record<string, string>) as typeof event
    } catch (err) {
      refused.push(String(err))
      res.writeHead(400).end()
      return
    }
    res.writeHead(state.status).end()
    if (state.status >= 300) return
    acknowledged.push({
      id: String(req.headers['webhook-id']),
      type: event.type,
      orderId: event.data.order.uuid,
      status: event.data.status,
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/hooks`, acknowledged, refused, state }
}

const fleetEnv = (receiverUrl: string) => ({
  WEBHOOK_URLS: receiverUrl,
  WEBHOOK_SECRET: SECRET,
  WEBHOOK_RETRY_SCHEDULE_MS:
    '300,300,300,300,300,300,300,300,300,300,300,300,300,300,300,300,300,300,300,300',
  WEBHOOK_TIMEOUT_MS: '2000',
  WATCH_LEASE_MS: String(LEASE_MS),
})

async function createThrough(fleet: Fleet, count: number): Promise<string[]> {
  const p = picks(fleet.sandbox.control.tokens())
  const uuids: string[] = []
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${fleet.url}/api/v1/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(orderBody(p)),
    })
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`)
    uuids.push(((await res.json()) as { uuid: string }).uuid)
  }
  return uuids
}

/** Per order, the statuses acknowledged, in the order they arrived. */
const byOrder = (received: Received[]) => {
  const seen = new Map<string, string[]>()
  for (const r of received) seen.set(r.orderId, [...(seen.get(r.orderId) ?? []), r.status])
  return seen
}

/** Each instance's reading of a series (0 when absent). */
const series = async (fleet: Fleet, pattern: RegExp) =>
  Promise.all(
    fleet.instances.map(async (i) => {
      const text = await (await fetch(i.metricsUrl)).text()
      return Number(pattern.exec(text)?.[1] ?? 0)
    }),
  )

const watched = (fleet: Fleet) => series(fleet, /^gateway_watched_orders (\d+)/m)

/** Webhook deliveries the fleet has recorded as delivered (counted once the record is settled). */
const settled = async (fleet: Fleet) =>
  (await series(fleet, /^gateway_webhook_deliveries_total\{[^}]*outcome="delivered"[^}]*\} (\d+)/m)).reduce(
    (a, b) => a + b,
  )

/** `count` orders created through the fleet, once every one of them is watched. */
async function createWatched(fleet: Fleet, count: number): Promise<string[]> {
  const uuids = await createThrough(fleet, count)
  await eventually(
    'every order watched',
    async () => (await watched(fleet)).reduce((a, b) => a + b) === count,
    20_000,
  )
  return uuids
}

const once = (t: Test, received: Received[]) => {
  const ids = received.map((r) => r.id)
  t.same(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'no event acknowledged twice',
  )
}

t.test(
  'three instances: each order event reaches the receiver once, in order',
  { skip: fleetSkip },
  async (t) => {
    const receiver = await startReceiver(t)
    const fleet = await startFleet(t, { env: fleetEnv(receiver.url) })
    const uuids = await createWatched(fleet, 6)
    const spread = await watched(fleet)
    t.ok(spread.filter((n) => n > 0).length >= 2, `the watches spread over the instances (${spread})`)
    for (const uuid of uuids) {
      fleet.sandbox.control.deposit(uuid)
      fleet.sandbox.control.confirm(uuid)
      fleet.sandbox.control.complete(uuid)
    }
    await eventually(
      'every order COMPLETED at the receiver',
      async () => uuids.every((u) => byOrder(receiver.acknowledged).get(u)?.at(-1) === 'COMPLETED'),
      30_000,
    )
    once(t, receiver.acknowledged)
    t.same(receiver.refused, [], 'every delivery verified')
    for (const [uuid, statuses] of byOrder(receiver.acknowledged)) {
      t.equal(statuses[0], 'AWAITING_USER_DEPOSIT', `${uuid.slice(0, 8)}: created first`)
    }
    await eventually('no watch left', async () => (await watched(fleet)).every((n) => n === 0), 20_000)
  },
)

t.test(
  'the lease holder killed: another instance reports what happened meanwhile',
  { skip: fleetSkip },
  async (t) => {
    const receiver = await startReceiver(t)
    const fleet = await startFleet(t, { env: fleetEnv(receiver.url) })
    const uuids = await createWatched(fleet, 6)
    // This test is about the watch's leases. A delivery the victim had claimed would wait out its own
    // lease (the sender's deadline plus 30 s) before another instance sent it, holding back the
    // order's later events meanwhile: the victim dies once every creation is delivered and recorded.
    await eventually(
      'every creation delivered and recorded',
      async () =>
        uuids.every((u) => byOrder(receiver.acknowledged).get(u)?.[0] === 'AWAITING_USER_DEPOSIT') &&
        (await settled(fleet)) >= receiver.acknowledged.length,
      20_000,
    )
    const counts = await watched(fleet)
    const victim = fleet.instances[counts.indexOf(Math.max(...counts))]!
    victim.child.process.kill('SIGKILL')
    await victim.child.exited
    for (const uuid of uuids) fleet.sandbox.control.fail(uuid)
    await eventually(
      'every order ERROR at the receiver',
      async () => uuids.every((u) => byOrder(receiver.acknowledged).get(u)?.includes('ERROR')),
      LEASE_MS + 20_000,
    )
    once(t, receiver.acknowledged)
  },
)

t.test(
  'every instance restarted with deliveries pending: each is delivered once',
  { skip: fleetSkip },
  async (t) => {
    const receiver = await startReceiver(t)
    receiver.state.status = 503
    const fleet = await startFleet(t, { env: fleetEnv(receiver.url) })
    const uuids = await createThrough(fleet, 3)
    for (const uuid of uuids) fleet.sandbox.control.fail(uuid)
    await eventually('no watch left', async () => (await watched(fleet)).every((n) => n === 0), 20_000)
    for (const instance of fleet.instances) await terminate(instance)
    receiver.state.status = 200
    for (const instance of fleet.instances) await instance.start()
    await eventually(
      'created and ERROR delivered for every order',
      async () =>
        uuids.every((u) => byOrder(receiver.acknowledged).get(u)?.join() === 'AWAITING_USER_DEPOSIT,ERROR'),
      30_000,
    )
    once(t, receiver.acknowledged)
  },
)
