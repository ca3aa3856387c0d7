// No reconnect storms (docs/stream.md): many streams are told different `retry:` delays, and a
// shutdown ends them at different moments across the drain window, all before the deadline.
import t from 'tap'
import { readRaw } from '../helpers/sse.js'
import { streamGateway } from '../status-stream/setup.js'

const STREAMS = 60

async function openStreams(gw: Awaited<ReturnType<typeof streamGateway>>) {
  const orders = [await gw.newOrder(), await gw.newOrder(), await gw.newOrder()]
  const streams = await Promise.all(
    Array.from({ length: STREAMS }, (_, n) => readRaw(gw.streamUrl(orders[n % orders.length]!))),
  )
  const firsts = await Promise.all(streams.map((s) => s.first()))
  return { streams, firsts }
}

t.test("each stream's retry advice is SSE_RETRY_MS spread over ±50 %, not one value for all", async (t) => {
  const gw = await streamGateway(t, { env: { SSE_RETRY_MS: '1000', SSE_MAX_PER_IP: '100' } })
  const { firsts } = await openStreams(gw)
  const retries = firsts.map((text) => Number(/^retry: (\d+)\nevent: snapshot\n/.exec(text)?.[1]))
  t.ok(
    retries.every((r) => r >= 500 && r <= 1500),
    `every advice within [500, 1500]: ${retries.join(', ')}`,
  )
  t.ok(Math.min(...retries) < 750, 'some clients come back in the first quarter of the range')
  t.ok(Math.max(...retries) > 1250, 'some in the last quarter')
  t.ok(new Set(retries).size > STREAMS / 2, 'hardly two clients told the same delay')
})

t.test(
  'on shutdown the streams end spread across SSE_DRAIN_SPREAD_MS, all before SHUTDOWN_TIMEOUT_MS, while no new connection is accepted',
  async (t) => {
    const spread = 1500
    const deadline = 3000
    const gw = await streamGateway(t, {
      env: {
        SSE_MAX_PER_IP: '100',
        SSE_DRAIN_SPREAD_MS: String(spread),
        SHUTDOWN_TIMEOUT_MS: String(deadline),
      },
    })
    const { streams } = await openStreams(gw)

    const started = performance.now()
    const closed = gw.app.close().then(() => performance.now() - started)
    const refused = await fetch(`${gw.url}/healthz`).then(
      () => false,
      () => true,
    )
    t.ok(refused, 'a new connection is refused while the streams drain')
    const ended = await Promise.all(streams.map((s) => s.ended))
    const ends = ended.map(({ at }) => at - started)
    const texts = ended.map(({ text }) => text)
    t.ok(
      texts.every((text) => text.endsWith(': server shutting down; reconnect\n\n')),
      'every stream says goodbye',
    )
    t.ok(
      Math.min(...ends) < spread / 4,
      `the first streams end early in the window (${Math.min(...ends)} ms)`,
    )
    t.ok(Math.max(...ends) > (3 * spread) / 4, `the last late in it (${Math.max(...ends)} ms)`)
    const quarters = [0, 1, 2, 3].map(
      (q) => ends.filter((ms) => ms >= (q * spread) / 4 && ms < ((q + 1) * spread) / 4).length,
    )
    t.ok(
      quarters.every((n) => n > 0 && n < STREAMS / 2),
      `ends in every quarter of the window, none holding half of them: ${quarters.join(', ')}`,
    )
    t.ok(Math.max(...ends) < deadline, 'every stream ended before the shutdown deadline')
    t.ok((await closed) < deadline, 'and the gateway finished closing before it')
  },
)
