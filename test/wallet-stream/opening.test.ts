// Opening a wallet stream: a session is required, the first event is the snapshot of the user's own
// recent orders (history's first page), its orders still moving are watched, and heartbeats flow.
import t from 'tap'
import { events, heartbeats } from '../helpers/sse.js'
import { assertProblem } from '../helpers/problem.js'
import { walletGateway } from './setup.js'

t.test('without a session the stream is refused with AUTH_REQUIRED', async (t) => {
  const gw = await walletGateway(t)
  const res = await gw.app.inject({ url: '/api/v1/orders/stream' })
  t.equal(res.statusCode, 401)
  assertProblem(t, res, 'AUTH_REQUIRED')
  const forged = await gw.app.inject({
    url: '/api/v1/orders/stream',
    headers: { authorization: 'Bearer not-a-session' },
  })
  assertProblem(t, forged, 'AUTH_REQUIRED')
})

t.test("the first event is a snapshot of the user's own orders, the moving ones watched", async (t) => {
  const gw = await walletGateway(t)
  const [alice, bob] = [await gw.user(), await gw.user()]
  const mine = [await gw.createOrder(alice.token), await gw.createOrder(alice.token)]
  await gw.createOrder(bob.token)
  await gw.createOrder()
  gw.sandbox.control.expire(mine[0]!.uuid)
  const followed: string[] = []
  gw.app.orderWatch.follow = async (uuid) => {
    followed.push(uuid)
  }

  const stream = await gw.raw(alice.auth)
  t.equal(stream.status, 200)
  t.match(stream.headers['content-type'], /^text\/event-stream/)
  const first = events(await stream.first())[0]!
  t.equal(first.event, 'snapshot')
  const data = JSON.parse(first.data) as { orders: Array<{ uuid: string; userId: string }>; event: string }
  t.same(data.orders.map((o) => o.uuid).sort(), mine.map((o) => o.uuid).sort(), 'her orders, and only hers')
  t.ok(data.orders.every((o) => o.userId === alice.userId))
  t.equal(data.event, 'snapshot')
  t.same(followed, [mine[1]!.uuid], 'the order still moving is watched, the expired one not')
  stream.close()

  const limited = await gw.raw(alice.auth, 1)
  t.equal(JSON.parse(events(await limited.first())[0]!.data).orders.length, 1, '`limit` pages the snapshot')
  limited.close()
  const tooMany = await gw.app.inject({ url: '/api/v1/orders/stream?limit=101', headers: alice.auth })
  assertProblem(t, tooMany, 'VALIDATION_FAILED')
})

t.test('an open wallet stream gets heartbeats and retry advice', async (t) => {
  const gw = await walletGateway(t, { env: { SSE_HEARTBEAT_MS: '50' } })
  const alice = await gw.user()
  const stream = await gw.raw(alice.auth)
  const text = await stream.until('two heartbeats', (s) => heartbeats(s) >= 2)
  t.match(text, /^retry: \d+\n/, 'retry advice first')
  stream.close()
})

t.test('a snapshot the upstream fails to give answers its problem and keeps no stream slot', async (t) => {
  const gw = await walletGateway(t)
  const alice = await gw.user()
  const open = async () =>
    /^gateway_wallet_streams_open (\d+)$/m.exec(await gw.app.metrics.registry.metrics())?.[1]
  gw.sandbox.control.fault('GET /v1/orders', { kind: 'error500', count: 10 })
  const failed = await gw.app.inject({ url: '/api/v1/orders/stream', headers: alice.auth })
  t.ok(failed.statusCode >= 500, `answered ${failed.statusCode}`)
  t.match(failed.headers['content-type'], /^application\/problem\+json/)
  t.equal(await open(), '0', 'the slot it took is given back')
  gw.sandbox.control.clearFaults()
  const stream = await gw.raw(alice.auth)
  t.equal(stream.status, 200)
  t.equal(events(await stream.first())[0]!.event, 'snapshot')
  t.equal(await open(), '1')
  stream.close()
})
