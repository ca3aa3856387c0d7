import http from 'node:http'
import t from 'tap'
import { systemClock } from '../../src/clock.js'
import { eventually } from '../helpers/eventually.js'
import { readRaw, STATUS_EVENT } from '../helpers/sse.js'
import { STREAM_ROUTE, streamGateway, subscribed } from './setup.js'

/** The sandbox's clock runs an hour behind ours, so its event ids cannot be mistaken for our read moments. */
const HOUR = 60 * 60 * 1000
const behind = { clock: { ...systemClock, now: () => Date.now() - HOUR } }

t.test(
  'a whole lifecycle arrives in order, each event with the upstream id and fields plus the re-read order',
  async (t) => {
    const gw = await streamGateway(t, { sandbox: behind })
    const uuid = await gw.newOrder()
    const f = gw.follow(uuid)
    await f.until('the snapshot', () => f.events.length === 1)
    await subscribed(gw.control, uuid)

    gw.control.deposit(uuid, { amount: 100 })
    await f.until('the deposit', () => f.of(STATUS_EVENT).length === 1)
    gw.control.confirm(uuid)
    await f.until('the confirmation', () => f.of(STATUS_EVENT).length === 2)
    gw.control.progress(uuid, 0.5) // no status change upstream, hence no event
    gw.control.complete(uuid)
    await f.until('completion', () => f.of(STATUS_EVENT).length === 3)

    const updates = f.of(STATUS_EVENT)
    t.same(
      updates.map((e) => e.data.status),
      ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING', 'COMPLETED'],
    )
    for (const e of updates) {
      t.match(
        e.data,
        { orderId: uuid, message: 'order update', updatedAt: String, event: STATUS_EVENT },
        'the upstream fields, and the event named',
      )
      // The terminal event's id carries the gateway's mark that the end was delivered (event-ids.ts).
      const upstreamId = e.id.replace(/\.end$/, '')
      t.equal(upstreamId, String(Date.parse(String(e.data.updatedAt))), 'the upstream id (updatedAt in ms)')
      t.ok(Number(upstreamId) < Date.now() - HOUR / 2, 'stamped by the upstream, not by the gateway')
      t.equal(e.data.order?.uuid, uuid)
      t.equal(e.data.order?.status, e.data.status, 'the order as re-read after the transition')
    }
    t.match(updates[0]?.data.order, { depositAmount: 100, senderDepositTx: String })
    t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 1, 'one upstream subscription throughout')
    const final = gw.control.order(uuid)
    t.match(updates[2]?.data.order, {
      settleAmount: final?.settleAmount,
      exchangeWithdrawTx: final?.exchangeWithdrawTx,
      exchangeWithdrawTxLink: final?.exchangeWithdrawTxLink,
      depositToken: { id: final?.depositTokenId },
    })
  },
)

t.test(
  'after the terminal status the stream ends, and the browser reconnecting with Last-Event-ID gets 204',
  async (t) => {
    const gw = await streamGateway(t)
    const uuid = await gw.newOrder()
    const f = gw.follow(uuid)
    await f.until('the snapshot', () => f.events.length === 1)
    await subscribed(gw.control, uuid)
    gw.control.fail(uuid)
    await f.until('EventSource gives up for good', () => f.es.readyState === f.es.CLOSED)
    t.same(
      f.events.map((e) => [e.type, e.data.status]),
      [
        ['snapshot', 'AWAITING_USER_DEPOSIT'],
        [STATUS_EVENT, 'ERROR'],
      ],
    )
    t.equal(f.opens, 1, 'it never reopened')
    t.equal(f.errors.at(-1)?.code, 204, 'the reconnect was answered 204')
    t.equal(gw.app.statusHub.stats().upstreamSubscriptions, 0, 'the subscription closed with the order')
    t.equal(gw.control.openStreams(uuid), 0)
  },
)

t.test(
  'a terminal order: snapshot then end without Last-Event-ID; 204 for the stream that had the end',
  async (t) => {
    const gw = await streamGateway(t)
    const uuid = await gw.newOrder()
    gw.control.advanceTime(31 * 60 * 1000)

    const f = gw.follow(uuid)
    await f.until('EventSource gives up', () => f.es.readyState === f.es.CLOSED)
    t.same(
      f.events.map((e) => [e.type, e.data.status]),
      [['snapshot', 'TIMED_OUT']],
      'the snapshot, then the end',
    )
    t.equal(f.errors.at(-1)?.code, 204)

    const delivered = f.events[0]!.id
    const res = await fetch(gw.streamUrl(uuid), { headers: { 'last-event-id': delivered } })
    t.equal(res.status, 204, 'the id of the event that delivered the end: 204')
    t.equal(await res.text(), '')

    // An id from before the end (a stream cut before it): the end is delivered, then the stream ends.
    const missed = await fetch(gw.streamUrl(uuid), { headers: { 'last-event-id': '1700000000000' } })
    t.equal(missed.status, 200)
    const frames = (await missed.text()).split('\n\n').filter(Boolean)
    t.equal(frames.length, 2, 'two events, then the end')
    t.match(frames[0], /^retry: \d+\nevent: snapshot\nid: \d+\.end\ndata: .*"status":"TIMED_OUT"/s)
    t.match(frames[1], /^event: orders:status-update\nid: \d+\.end\ndata: .*"status":"TIMED_OUT"/s)
    t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 0, 'a terminal order never opens an upstream stream')
  },
)

t.test('an order that times out while followed ends the stream with TIMED_OUT', async (t) => {
  const gw = await streamGateway(t)
  const uuid = await gw.newOrder()
  const f = gw.follow(uuid)
  await f.until('the snapshot', () => f.events.length === 1)
  await subscribed(gw.control, uuid)
  gw.control.advanceTime(31 * 60 * 1000)
  await f.until('the end', () => f.es.readyState === f.es.CLOSED)
  t.same(
    f.of(STATUS_EVENT).map((e) => e.data.status),
    ['TIMED_OUT'],
  )
  t.equal(f.of(STATUS_EVENT)[0]?.data.order?.status, 'TIMED_OUT')
})

t.test(
  'a reconnect with Last-Event-ID to an order still in flight gets a fresh snapshot and the stream',
  async (t) => {
    const gw = await streamGateway(t)
    const uuid = await gw.newOrder()
    gw.control.deposit(uuid)
    const stream = await readRaw(gw.streamUrl(uuid), { 'last-event-id': '1' })
    t.equal(stream.status, 200)
    t.match(await stream.first(), /event: snapshot\n.*"status":"AWAITING_USER_DEPOSIT_CONFIRMATIONS"/s)
    stream.close()
  },
)

t.test('a connection that carried an ended stream serves the next request (keep-alive)', async (t) => {
  const gw = await streamGateway(t)
  const uuid = await gw.newOrder()
  const f = gw.follow(uuid)
  await f.until('the snapshot', () => f.events.length === 1)
  await subscribed(gw.control, uuid)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  t.teardown(() => agent.destroy())
  const get = (path: string) =>
    new Promise<{ status: number; body: string; reused: boolean }>((resolve, reject) => {
      const req = http.get(`${gw.url}${path}`, { agent }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, reused: req.reusedSocket }))
      })
      req.on('error', reject)
    })
  const streamed = get(`/api/orders/${uuid}/status-stream`)
  await eventually('both followers attached', () => gw.app.statusHub.stats().openStreams === 2)
  gw.control.fail(uuid)
  const first = await streamed
  t.match(first.body, /event: snapshot[\s\S]*event: orders:status-update[\s\S]*"status":"ERROR"/)
  const second = await get(`/api/v1/orders/${uuid}`)
  t.equal(second.status, 200)
  t.equal(JSON.parse(second.body).status, 'ERROR')
  t.ok(second.reused, 'the same connection')
})
