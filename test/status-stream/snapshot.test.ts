import t from 'tap'
import { assertProblem } from '../helpers/problem.js'
import { readRaw } from '../helpers/sse.js'
import { READ_ROUTE, STREAM_ROUTE, streamGateway } from './setup.js'

t.test(
  'a follower first gets the snapshot: the full order, stamped with the moment it was read',
  async (t) => {
    const gw = await streamGateway(t)
    const uuid = await gw.newOrder()
    const before = Date.now()
    const f = gw.follow(uuid)
    await f.until('the snapshot', () => f.events.length >= 1)
    const [snapshot] = f.events
    t.equal(snapshot?.type, 'snapshot')
    const order = (await gw.app.inject(`/api/v1/orders/${uuid}`)).json()
    t.same(
      snapshot?.data,
      { ...order, event: 'snapshot' },
      'the body GET /api/v1/orders/:uuid returns, named',
    )
    const id = Number(snapshot?.id)
    t.ok(id >= before && id <= Date.now(), 'id: the read moment in ms')
    t.equal(gw.app.statusHub.stats().openStreams, 1)
  },
)

t.test(
  'the stream is an unbuffered, uncached event stream with the usual headers and retry advice',
  async (t) => {
    // A random draw in the middle of the jitter's range gives the base itself.
    const gw = await streamGateway(t, { env: { SSE_RETRY_MS: '5000' }, random: () => 0.5 })
    const uuid = await gw.newOrder()
    const res = await readRaw(gw.streamUrl(uuid), { 'x-request-id': 'trace-me-42' })
    const first = await res.first()
    res.close()
    t.equal(res.status, 200)
    t.match(res.headers['content-type'], /^text\/event-stream/)
    t.equal(res.headers['cache-control'], 'no-cache')
    t.equal(res.headers['x-accel-buffering'], 'no')
    t.equal(res.headers['referrer-policy'], 'no-referrer', 'security headers too')
    t.equal(res.headers['x-request-id'], 'trace-me-42')
    t.match(first, /^retry: 5000\nevent: snapshot\nid: \d+\ndata: \{.*\}\n\n$/s)
  },
)

t.test('a malformed uuid is INVALID_ORDER_ID, and the upstream is never asked', async (t) => {
  const gw = await streamGateway(t)
  for (const bad of ['not-a-uuid', '123', 'a'.repeat(36), '00000000-0000-0000-0000-00000000000g']) {
    const res = await fetch(`${gw.url}/api/orders/${bad}/status-stream`, {
      headers: { accept: 'text/event-stream' },
    })
    assertProblem(
      t,
      { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() },
      'INVALID_ORDER_ID',
    )
  }
  t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 0)
  t.equal(gw.control.requestsTo(READ_ROUTE).length, 0)
})

t.test('an unknown order is ORDER_NOT_FOUND, and no upstream stream is opened for it', async (t) => {
  const gw = await streamGateway(t)
  const res = await fetch(gw.streamUrl(crypto.randomUUID()), { headers: { accept: 'text/event-stream' } })
  assertProblem(
    t,
    { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() },
    'ORDER_NOT_FOUND',
  )
  t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 0)
  t.same(gw.app.statusHub.stats(), {
    openStreams: 0,
    preparing: 0,
    upstreamSubscriptions: 0,
    polling: 0,
    reconnects: 0,
    polls: 0,
    eventsSent: 0,
  })
})

t.test('an upstream that cannot be reached is a problem document, not a stream', async (t) => {
  const gw = await streamGateway(t)
  const uuid = await gw.newOrder()
  gw.control.fault(READ_ROUTE, { kind: 'error500', count: 10 })
  const res = await fetch(gw.streamUrl(uuid))
  assertProblem(
    t,
    { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() },
    'UPSTREAM_ERROR',
  )
  t.equal(gw.app.statusHub.stats().openStreams, 0)
})

t.test('HEAD opens no stream', async (t) => {
  const gw = await streamGateway(t)
  const uuid = await gw.newOrder()
  const res = await fetch(gw.streamUrl(uuid), { method: 'HEAD' })
  t.equal(res.status, 404)
  t.equal(gw.app.statusHub.stats().openStreams, 0)
  t.equal(gw.control.requestsTo(STREAM_ROUTE).length, 0)
})
