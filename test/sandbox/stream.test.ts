// GET /orders/{orderUUID}/status-stream: framing byte for byte, no snapshot, no replay, idle
// close, unknown uuids, server-side closes, and a standard EventSource client. The sandbox runs on
// a fake clock: idle closes happen when a test moves it, and a check that nothing was sent is bounded
// by a later event or the stream's end.
import t from 'tap'
import { buildSandbox } from '../../src/sandbox/app.js'
import { statusEventSchema } from '../../src/sandbox/resources.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startSandbox } from '../helpers/sandbox.js'
import { events, follow, readRaw, STATUS_EVENT } from '../helpers/sse.js'
import { call, createOrder, settledBefore } from './http.js'

const statuses = (text: string) => events(text).map((event) => JSON.parse(event.data).status)
/** Long, as in production: on the process's timers instead of the clock, no idle close would come in time. */
const IDLE_MS = 60_000

t.test('200 text/event-stream, one empty line, then exactly one framed event per transition', async (t) => {
  const { url, control } = await startSandbox(t, { clock: fakeClock() })
  const order = await createOrder(url)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  t.teardown(() => stream.close())
  t.equal(stream.status, 200)
  t.equal(stream.headers['content-type'], 'text/event-stream')
  t.equal(
    await stream.until('the first bytes', (text) => text.length > 0),
    '\n',
    'initially one empty line, no snapshot',
  )

  control.deposit(order.uuid)
  const text = await stream.until('the event', (received) => received.endsWith('}\n\n'))
  const match = /^\nevent: orders:status-update\nid: (\d+)\nretry: 5000\ndata: (\{.*\})\n\n$/.exec(text)
  t.ok(match, `framing: ${JSON.stringify(text)}`)
  const data = statusEventSchema.strict().parse(JSON.parse(match?.[2] ?? '{}'))
  t.strictSame(Object.keys(JSON.parse(match?.[2] ?? '{}')), ['orderId', 'status', 'message', 'updatedAt'])
  t.equal(data.orderId, order.uuid, 'orderId is the uuid')
  t.equal(data.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
  t.equal(data.message, 'order update')
  t.equal(Number(match?.[1]), Date.parse(data.updatedAt), 'id is updatedAt in ms')
  t.equal(Number(match?.[1]), control.now(), 'the sandbox time of the transition')

  control.confirm(order.uuid)
  control.progress(order.uuid, 1)
  control.complete(order.uuid)
  // Ending the stream after the transitions: anything they sent arrives before its end.
  control.closeStreams(order.uuid)
  const { text: all } = await stream.ended
  t.same(
    statuses(all),
    ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING', 'COMPLETED'],
    'progress emits nothing',
  )
})

t.test('every open stream of the order gets the event; other orders’ streams do not', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url)
  const other = await createOrder(url)
  const a = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  const b = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  const c = await readRaw(`${url}/orders/${other.uuid}/status-stream`)
  t.teardown(() => {
    for (const s of [a, b, c]) s.close()
  })
  await Promise.all([a, b, c].map((s) => s.until('the opening empty line', (text) => text === '\n')))
  t.equal(control.openStreams(order.uuid), 2)
  t.equal(control.openStreams(), 3)
  control.fail(order.uuid)
  await a.until('the ERROR event', (text) => text.includes('"ERROR"'))
  await b.until('the ERROR event', (text) => text.includes('"ERROR"'))
  control.deposit(other.uuid)
  await c.until('its own order’s event', (text) => events(text).length === 1)
  t.same(
    statuses(c.text()),
    ['AWAITING_USER_DEPOSIT_CONFIRMATIONS'],
    'the other order’s ERROR did not come first',
  )
})

t.test('Last-Event-ID replays nothing', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url)
  control.deposit(order.uuid)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`, { 'last-event-id': '1' })
  t.teardown(() => stream.close())
  await stream.until('the first bytes', (text) => text.length > 0)
  control.confirm(order.uuid)
  await stream.until('the next event', (text) => events(text).length === 1)
  t.same(statuses(stream.text()), ['PROCESSING'], 'the deposit before the stream opened is not replayed')
})

t.test('the server closes a stream after idleCloseMs without an event for its order', async (t) => {
  const clock = fakeClock()
  const { url, control } = await startSandbox(t, { clock, idleCloseMs: IDLE_MS })
  const watched = await createOrder(url)
  const other = await createOrder(url)
  const quiet = await readRaw(`${url}/orders/${watched.uuid}/status-stream`)
  await quiet.until('the opening empty line', (text) => text === '\n')
  clock.advance(IDLE_MS / 2)
  control.deposit(other.uuid)
  clock.advance(IDLE_MS / 2 - 1)
  t.notOk(await settledBefore(url, quiet.ended), 'open 1 ms before idleCloseMs')
  clock.advance(1)
  await quiet.until('the idle close at idleCloseMs (other orders’ events do not count)', (_, ended) => ended)
  t.equal(quiet.text(), '\n')
  t.equal(control.openStreams(watched.uuid), 0)
})

t.test('the event pushes the idle deadline back', async (t) => {
  const clock = fakeClock()
  const { url, control } = await startSandbox(t, { clock, idleCloseMs: IDLE_MS })
  const order = await createOrder(url)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  await stream.until('the opening empty line', (text) => text === '\n')
  clock.advance(IDLE_MS / 2)
  control.deposit(order.uuid)
  await stream.until('the event', (text) => events(text).length === 1)
  clock.advance(IDLE_MS - 1)
  t.notOk(await settledBefore(url, stream.ended), 'open past the first deadline, 1 ms before the new one')
  clock.advance(1)
  await stream.until('the idle close idleCloseMs after the event', (_, ended) => ended)
})

t.test('an unknown uuid still opens a silent stream that idle-closes', async (t) => {
  const clock = fakeClock()
  const { url, control } = await startSandbox(t, { clock, idleCloseMs: IDLE_MS })
  const stream = await readRaw(`${url}/orders/00000000-0000-4000-8000-000000000000/status-stream`)
  t.equal(stream.status, 200)
  t.equal(control.openStreams('00000000-0000-4000-8000-000000000000'), 1)
  await stream.until('the opening empty line', (text) => text === '\n')
  clock.advance(IDLE_MS)
  await stream.until('the idle close', (_, ended) => ended)
  t.equal(stream.text(), '\n')
  const garbage = await readRaw(`${url}/orders/not-a-uuid/status-stream`)
  t.equal(garbage.status, 200)
  await garbage.until('the opening empty line', (text) => text === '\n')
  clock.advance(IDLE_MS)
  await garbage.until('the idle close', (_, ended) => ended)
})

t.test('the /v1 prefix on the stream path is a 404', async (t) => {
  const { url } = await startSandbox(t)
  const order = await createOrder(url)
  const res = await call(url, `/v1/orders/${order.uuid}/status-stream`)
  t.equal(res.status, 404)
  t.strictSame(res.body, {
    message: `Cannot GET /v1/orders/${order.uuid}/status-stream`,
    error: 'Not Found',
    statusCode: 404,
  })
})

t.test('closeStreams ends streams from the server side, for one order or all', async (t) => {
  const { url, control } = await startSandbox(t)
  const one = await createOrder(url)
  const two = await createOrder(url)
  const a = await readRaw(`${url}/orders/${one.uuid}/status-stream`)
  const b = await readRaw(`${url}/orders/${two.uuid}/status-stream`)
  await Promise.all([
    a.until('the opening empty line', (x) => x === '\n'),
    b.until('the opening empty line', (x) => x === '\n'),
  ])
  t.equal(control.closeStreams(one.uuid), 1)
  await a.ended
  t.equal(control.openStreams(two.uuid), 1, 'the other order’s stream is untouched')
  t.equal(control.closeStreams(), 1)
  await b.ended
  t.equal(control.openStreams(), 0)
})

t.test('closing the app ends open streams and leaves no timer (the process can exit)', async (t) => {
  const clock = fakeClock()
  const { app, control } = buildSandbox({ clock })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const left = await readRaw(`http://127.0.0.1:${port}/orders/x/status-stream`)
  const stream = await readRaw(`http://127.0.0.1:${port}/orders/x/status-stream`)
  await left.until('the opening empty line', (x) => x === '\n')
  await stream.until('the opening empty line', (x) => x === '\n')
  left.close()
  await eventually('the sandbox to see the client leave', () => control.openStreams() === 1)
  t.equal(clock.pending(), 2, 'the expiry sweep and the open stream’s idle close wait on the clock')
  await app.close()
  await stream.ended
  t.pass('stream ended on close')
  t.equal(clock.pending(), 0, 'no idle close pending, for the stream the client left nor the one closed')
})

t.test(
  'a standard EventSource client receives the named event, and only through a named listener',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const order = await createOrder(url)
    const source = follow(t, `${url}/orders/${order.uuid}/status-stream`, { events: [STATUS_EVENT] })
    let generic = 0
    source.es.onmessage = () => {
      generic++
    }
    await source.until('the stream open', () => source.opens === 1)
    t.same(source.errors, [], 'opened without an error')
    control.deposit(order.uuid)
    await source.until('the event', () => source.events.length === 1)
    const [event] = source.events
    const data = statusEventSchema.parse(event?.data)
    t.equal(data.orderId, order.uuid)
    t.equal(data.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
    t.equal(event?.id, String(Date.parse(data.updatedAt)))
    t.equal(generic, 0, 'a generic message handler does not fire')
  },
)
