import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { STATUS_EVENT } from '../helpers/sse.js'
import { READ_ROUTE, STREAM_ROUTE, streamGateway, subscribed } from './setup.js'

const many = { env: { SSE_MAX_PER_IP: '1000' } }

const resources = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length

t.test(
  'a hundred followers of one order share one upstream subscription, which closes with the last',
  async (t) => {
    const gw = await streamGateway(t, many)
    const uuid = await gw.newOrder()
    const timersBefore = resources('Timeout')
    const followers = Array.from({ length: 100 }, () => gw.follow(uuid))
    await Promise.all(followers.map((f) => f.until('the snapshot', () => f.events.length === 1, 15_000)))
    await subscribed(gw.control, uuid)

    t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 1, 'the sandbox saw one stream request')
    t.equal(gw.control.openStreams(uuid), 1)
    t.match(gw.app.statusHub.stats(), { openStreams: 100, upstreamSubscriptions: 1 })

    gw.control.deposit(uuid)
    await Promise.all(followers.map((f) => f.until('the deposit', () => f.of(STATUS_EVENT).length === 1)))
    t.equal(new Set(followers.map((f) => f.of(STATUS_EVENT)[0]?.id)).size, 1, 'everyone got the same event')
    t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 1)

    for (const f of followers) f.close()
    await eventually(
      'every stream and the subscription gone',
      () => gw.app.statusHub.stats().openStreams === 0,
    )
    t.match(gw.app.statusHub.stats(), { openStreams: 0, upstreamSubscriptions: 0 })
    await eventually('the sandbox sees the subscription closed', () => gw.control.openStreams(uuid) === 0)
    await eventually('no timer left behind', () => resources('Timeout') <= timersBefore)
  },
)

t.test('each order has its own subscription; leaving one order leaves the other followed', async (t) => {
  const gw = await streamGateway(t, many)
  const [a, b] = [await gw.newOrder(), await gw.newOrder()]
  const fa = gw.follow(a)
  const fb = gw.follow(b)
  await Promise.all([subscribed(gw.control, a), subscribed(gw.control, b)])
  t.equal(gw.app.statusHub.stats().upstreamSubscriptions, 2)
  fa.close()
  await eventually('a unsubscribed', () => gw.control.openStreams(a) === 0)
  t.equal(gw.control.openStreams(b), 1)
  gw.control.deposit(b)
  await fb.until('b moves on', () => fb.of(STATUS_EVENT).length === 1)
  t.equal(fa.of(STATUS_EVENT).length, 0)
})

t.test('a client that leaves while its order is being read leaves nothing behind', async (t) => {
  const gw = await streamGateway(t, many)
  const uuid = await gw.newOrder()
  gw.control.fault(READ_ROUTE, { kind: 'delay', ms: 300 })
  const abort = new AbortController()
  const pending = fetch(gw.streamUrl(uuid), { signal: abort.signal }).catch((err: Error) => err)
  await eventually('the read reached the sandbox', () => gw.control.requestsTo(READ_ROUTE).length === 1)
  t.equal(gw.app.statusHub.stats().preparing, 1, 'the stream waits for its read')
  abort.abort()
  t.type(await pending, Error)
  // The read goes on after the client left; what the gateway does once it comes back is the test.
  await eventually('the read to come back', () => gw.app.statusHub.stats().preparing === 0)
  t.same(gw.app.statusHub.stats(), {
    openStreams: 0,
    preparing: 0,
    upstreamSubscriptions: 0,
    polling: 0,
    reconnects: 0,
    polls: 0,
    eventsSent: 0,
  })
  t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 0, 'no upstream stream was opened')
})
