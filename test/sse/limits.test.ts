import t from 'tap'
import { assertProblem } from '../helpers/problem.js'
import { eventually } from '../helpers/eventually.js'
import { streamGateway } from '../status-stream/setup.js'

async function refused(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers })
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
}

t.test(
  'over SSE_MAX_PER_IP a client gets 429 RATE_LIMITED; other clients and freed places are unaffected',
  async (t) => {
    const gw = await streamGateway(t, { env: { SSE_MAX_PER_IP: '2', CLIENT_IP_HEADER: 'fly-client-ip' } })
    const uuid = await gw.newOrder()
    const alice = { 'fly-client-ip': '203.0.113.7' }
    const first = gw.follow(uuid, alice)
    const second = gw.follow(uuid, alice)
    await Promise.all([first, second].map((f) => f.until('open', () => f.events.length === 1)))

    const res = await refused(gw.streamUrl(uuid), alice)
    const problem = assertProblem(t, res, 'RATE_LIMITED')
    t.equal(res.headers['retry-after'], String(problem.retryAfter))
    t.ok(Number(problem.retryAfter) >= 1)

    const bob = gw.follow(uuid, { 'fly-client-ip': '198.51.100.9' })
    await bob.until('bob is served', () => bob.events.length === 1)

    first.close()
    await eventually('alice has a free place', () => gw.app.statusHub.stats().openStreams === 2)
    const third = gw.follow(uuid, alice)
    await third.until('served again', () => third.events.length === 1)
  },
)

t.test('over SSE_MAX_TOTAL the gateway answers 503 SERVICE_UNAVAILABLE', async (t) => {
  const gw = await streamGateway(t, { env: { SSE_MAX_TOTAL: '3', SSE_MAX_PER_IP: '100' } })
  const uuid = await gw.newOrder()
  const open = [gw.follow(uuid), gw.follow(uuid), gw.follow(uuid)]
  await Promise.all(open.map((f) => f.until('open', () => f.events.length === 1)))
  const res = await refused(gw.streamUrl(uuid), {})
  assertProblem(t, res, 'SERVICE_UNAVAILABLE')
  t.ok(res.headers['retry-after'])
  t.equal(gw.app.statusHub.stats().openStreams, 3)
})

t.test('refused and failed streams give their place back', async (t) => {
  const gw = await streamGateway(t, { env: { SSE_MAX_TOTAL: '1' } })
  for (let i = 0; i < 3; i++) {
    const res = await refused(gw.streamUrl(crypto.randomUUID()), {})
    assertProblem(t, res, 'ORDER_NOT_FOUND')
  }
  const uuid = await gw.newOrder()
  const f = gw.follow(uuid)
  await f.until('served', () => f.events.length === 1)
})
