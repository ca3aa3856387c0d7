// What live quote streams share with status streams: the stream limits, the heartbeat and the ends at
// shutdown; and what they share with the quote route: the `pricing` rate-limit group.
import t from 'tap'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { orderBody } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'
import { heartbeats, readRaw } from '../helpers/sse.js'
import { quoteGateway } from './setup.js'

async function answer(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers })
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
}

t.test('live quote and status streams count against the same SSE_MAX_PER_IP', async (t) => {
  const gw = await quoteGateway(t, { env: { SSE_MAX_PER_IP: '2', CLIENT_IP_HEADER: 'fly-client-ip' } })
  const alice = { 'fly-client-ip': '203.0.113.7' }
  const created = await gw.app.inject({
    method: 'POST',
    url: '/api/v1/orders/create',
    payload: orderBody(gw.p),
  })
  const statusUrl = `${gw.url}/api/orders/${created.json<{ uuid: string }>().uuid}/status-stream`
  const status = await readRaw(statusUrl)
  const w = gw.watch(gw.params(), alice)
  // The status stream's own client sends no header: another address. Alice's second place:
  const w2 = gw.watch(gw.params(300), alice)
  await Promise.all([
    status.first(),
    ...[w, w2].map((x) => x.until('open', () => x.of('quote').length === 1)),
  ])
  assertProblem(t, await answer(gw.streamUrl(gw.params()), alice), 'RATE_LIMITED')
  assertProblem(t, await answer(statusUrl, alice), 'RATE_LIMITED')
  t.equal(gw.app.statusHub.stats().openStreams, 1, 'status streams counted apart')
  t.equal(gw.app.quoteHub.stats().openStreams, 2, 'live quotes counted apart')
  w2.close()
  await eventually('a free place', () => gw.app.quoteHub.stats().openStreams === 1)
  const res = await fetch(statusUrl, { headers: alice })
  t.equal(res.status, 200, 'the freed place serves a status stream')
  await res.body?.cancel()
})

t.test('a live quote is in the pricing rate-limit group, counted once per stream opened', async (t) => {
  const gw = await quoteGateway(t, {
    env: { RATE_LIMITS: JSON.stringify({ pricing: { max: 3, timeWindow: '1 minute' } }) },
  })
  const watchers = [gw.watch(gw.params()), gw.watch(gw.params())]
  await Promise.all(watchers.map((w) => w.until('open', () => w.of('quote').length === 1)))
  await eventually('refreshes, which count nothing', () => gw.app.quoteHub.stats().refreshes >= 4)
  t.equal((await answer(gw.quoteUrl(gw.params()))).statusCode, 200, 'the third request of the group')
  const refused = assertProblem(t, await answer(gw.streamUrl(gw.params())), 'RATE_LIMITED')
  t.equal(refused.group, 'pricing')
})

t.test('a quiet live quote carries the heartbeat comment every SSE_HEARTBEAT_MS', async (t) => {
  const gw = await quoteGateway(t, {
    env: { SSE_HEARTBEAT_MS: '40', QUOTE_REFRESH_MS: '60000', QUOTE_STREAM_MAX_SILENCE_MS: '60000' },
  })
  const raw = await readRaw(gw.streamUrl(gw.params()))
  const text = await raw.until('three heartbeats', (text) => heartbeats(text) >= 3)
  raw.close()
  t.match(text, /^retry: \d+\nevent: quote\ndata: [^\n]+\n\n: heartbeat\n\n: heartbeat\n\n: heartbeat\n\n/)
})

t.test('on shutdown live quotes end cleanly with the status streams, and their polls stop', async (t) => {
  // Held still, the clock keeps every timer the polls set until someone clears it.
  const clock = fakeClock()
  const gw = await quoteGateway(t, { clock })
  const created = await gw.app.inject({
    method: 'POST',
    url: '/api/v1/orders/create',
    payload: orderBody(gw.p),
  })
  const status = await readRaw(`${gw.url}/api/orders/${created.json<{ uuid: string }>().uuid}/status-stream`)
  const quotes = await Promise.all([readRaw(gw.streamUrl(gw.params())), readRaw(gw.streamUrl(gw.params(5)))])
  await Promise.all([status.first(), ...quotes.map((q) => q.first())])
  t.equal(gw.app.quoteHub.stats().polled, 2)
  await gw.app.close()
  for (const q of quotes) {
    t.match((await q.ended).text, /^retry: \d+\nevent: quote\n.*\n: server shutting down; reconnect\n\n$/s)
  }
  t.match((await status.ended).text, /: server shutting down; reconnect\n\n$/)
  t.match(gw.app.quoteHub.stats(), { openStreams: 0, polled: 0 })
  t.equal(clock.pending(), 0, 'no refresh, nor any other timer, left after the shutdown')
})
