import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { readRaw } from '../helpers/sse.js'
import { READ_ROUTE, streamGateway, subscribed } from '../status-stream/setup.js'

const within = <T>(ms: number, what: string, p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} hung`)), ms)),
  ])

t.test(
  'on shutdown every stream is ended cleanly, the subscriptions are closed, and close() returns',
  async (t) => {
    const gw = await streamGateway(t, { env: { SSE_MAX_PER_IP: '100' } })
    const orders = [await gw.newOrder(), await gw.newOrder()]
    const streams = await Promise.all([...orders, ...orders].map((uuid) => readRaw(gw.streamUrl(uuid))))
    await Promise.all(streams.map((s) => s.first()))
    await Promise.all(orders.map((uuid) => subscribed(gw.control, uuid)))
    const f = gw.follow(orders[0]!)
    await f.until('open', () => f.events.length === 1)

    await within(5000, 'app.close()', gw.app.close())
    for (const s of streams) {
      const { text } = await within(2000, 'the stream end', s.ended)
      t.match(text, /^retry: \d+\nevent: snapshot\n.*\n: server shutting down; reconnect\n\n$/s)
    }
    await f.until('the browser notices and tries to reconnect', () => f.errors.length > 0)
    t.match(gw.app.statusHub.stats(), { openStreams: 0, upstreamSubscriptions: 0 })
    await eventually('the sandbox sees no subscription', () => gw.control.openStreams() === 0)
  },
)

t.test(
  'a stream still reading its order when shutdown begins gets its snapshot and an end, not a refusal',
  async (t) => {
    // A 503 would stop an EventSource for good; an ended stream makes it reconnect elsewhere.
    const gw = await streamGateway(t)
    const uuid = await gw.newOrder()
    gw.control.fault(READ_ROUTE, { kind: 'delay', ms: 300 })
    const pending = fetch(gw.streamUrl(uuid))
    await eventually('the read reached the sandbox', () => gw.control.requestsTo(READ_ROUTE).length === 1)
    const closing = gw.app.close()
    const res = await pending
    t.equal(res.status, 200)
    t.match(
      await within(5000, 'the stream end', res.text()),
      /^retry: \d+\nevent: snapshot\nid: \d+\ndata: .*\n\n: server shutting down; reconnect\n\n$/s,
    )
    await within(5000, 'app.close()', closing)
    t.equal(gw.control.openStreams(), 0)
  },
)
