// Opening upstream status streams is bounded per instance: a watch taking over thousands of orders
// must not open every stream at once (the upstream's listen queue fills), and a stream a client reads
// goes before the watch's. An upstream double holds each stream's answer head until the test lets
// it go, so the streams being opened are counted where the upstream sees them.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'

async function holdingUpstream(t: Test) {
  const held: ServerResponse[] = []
  const arrived: string[] = []
  let most = 0
  const server = createServer((req, res) => {
    const order = /\/orders\/([^/]+)\/status-stream$/.exec(req.url ?? '')?.[1]
    if (!order) return void res.writeHead(503).end()
    held.push(res)
    arrived.push(order)
    most = Math.max(most, held.length)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.length,
    /** The orders whose stream reached the upstream, in order of arrival. */
    arrived,
    /** The most openings the upstream held at once. */
    most: () => most,
    /** Answers the oldest held opening with a stream's head. */
    answerOne() {
      held.shift()?.writeHead(200, { 'content-type': 'text/event-stream' }).write('\n')
    },
  }
}

async function gatewayOn(t: Test, upstreamUrl: string, maxOpeningStreams: number) {
  const { app } = await startGateway(t, {
    env: { UPSTREAM_URL: upstreamUrl },
    deps: { upstreamTuning: { maxOpeningStreams }, catalogTuning: { startupWaitMs: 0 } },
  })
  const abort = new AbortController()
  t.teardown(() => abort.abort())
  return {
    /** Opens order `n`'s stream as the status hub does; `urgent`: a client reads it. */
    open(order: string, urgent = false) {
      const path = `/orders/${order}/status-stream`
      const res = app.upstream.openStream(() => app.upstreamContextFor(order), path, abort.signal, urgent)
      void res.then((r) => r.body.on('error', () => {})).catch(() => {})
    },
  }
}

t.test('no more streams are being opened at once than the bound; the rest follow in turn', async (t) => {
  const upstream = await holdingUpstream(t)
  const gw = await gatewayOn(t, upstream.url, 2)
  const orders = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6']
  for (const order of orders) gw.open(order)
  for (let answered = 0; answered < orders.length; answered++) {
    await eventually(`opening ${answered + 1} at the upstream`, () => upstream.arrived.length > answered)
    if (answered + 2 <= orders.length) {
      await eventually('two openings held at the upstream', () => upstream.held() === 2)
    }
    upstream.answerOne()
  }
  t.equal(upstream.most(), 2, 'never more than two openings at the upstream at once')
  t.same(upstream.arrived, orders, 'in the order they were asked for')
})

t.test("a client's stream is opened before the watch's that wait", async (t) => {
  const upstream = await holdingUpstream(t)
  const gw = await gatewayOn(t, upstream.url, 1)
  for (const order of ['w1', 'w2', 'w3']) gw.open(order)
  await eventually('the first opening held', () => upstream.held() === 1)
  gw.open('user', true)
  for (let answered = 0; answered < 4; answered++) {
    await eventually(`opening ${answered + 1} at the upstream`, () => upstream.arrived.length > answered)
    upstream.answerOne()
  }
  t.same(upstream.arrived, ['w1', 'user', 'w2', 'w3'])
  t.equal(upstream.most(), 1)
})
