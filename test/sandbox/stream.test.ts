// GET /orders/{orderUUID}/status-stream: framing byte for byte, no snapshot, no replay, idle
// close, unknown uuids, server-side closes, and a standard EventSource client.
import t from 'tap'
import { buildSandbox } from '../../src/sandbox/app.js'
import { statusEventSchema } from '../../src/sandbox/resources.js'
import { startSandbox } from '../helpers/sandbox.js'
import { events, follow, readRaw, STATUS_EVENT } from '../helpers/sse.js'
import { call, createOrder } from './http.js'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

t.test('200 text/event-stream, one empty line, then exactly one framed event per transition', async (t) => {
  const { url, control } = await startSandbox(t)
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
  const at = control.now()
  const match = /^\nevent: orders:status-update\nid: (\d+)\nretry: 5000\ndata: (\{.*\})\n\n$/.exec(text)
  t.ok(match, `framing: ${JSON.stringify(text)}`)
  const data = statusEventSchema.strict().parse(JSON.parse(match?.[2] ?? '{}'))
  t.strictSame(Object.keys(JSON.parse(match?.[2] ?? '{}')), ['orderId', 'status', 'message', 'updatedAt'])
  t.equal(data.orderId, order.uuid, 'orderId is the uuid')
  t.equal(data.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
  t.equal(data.message, 'order update')
  t.equal(Number(match?.[1]), Date.parse(data.updatedAt), 'id is updatedAt in ms')
  t.ok(Math.abs(Number(match?.[1]) - at) < 1000)

  control.confirm(order.uuid)
  control.progress(order.uuid, 1)
  control.complete(order.uuid)
  await stream.until('three events', (received) => events(received).length === 3)
  await pause(50)
  t.same(
    events(stream.text()).map((event) => JSON.parse(event.data).status),
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
  await pause(50)
  t.equal(c.text(), '\n')
})

t.test('Last-Event-ID replays nothing', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url)
  control.deposit(order.uuid)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`, { 'last-event-id': '1' })
  t.teardown(() => stream.close())
  await stream.until('the first bytes', (text) => text.length > 0)
  await pause(100)
  t.equal(stream.text(), '\n')
})

t.test('the server closes a stream after idleCloseMs without an event for its order', async (t) => {
  const { url, control } = await startSandbox(t, { idleCloseMs: 300 })
  const watched = await createOrder(url)
  const other = await createOrder(url)
  const quiet = await readRaw(`${url}/orders/${watched.uuid}/status-stream`)
  const opened = Date.now()
  await pause(150)
  control.deposit(other.uuid)
  await quiet.ended
  const lived = Date.now() - opened
  t.ok(
    lived >= 280 && lived < 450,
    `idle close after ~300 ms (${lived} ms); other orders' events do not count`,
  )
  t.equal(quiet.text(), '\n')
  t.equal(control.openStreams(watched.uuid), 0)
})

t.test('the event pushes the idle deadline back', async (t) => {
  const { url, control } = await startSandbox(t, { idleCloseMs: 300 })
  const order = await createOrder(url)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  const opened = Date.now()
  await pause(200)
  control.deposit(order.uuid)
  await stream.ended
  const lived = Date.now() - opened
  t.ok(lived >= 480, `closed ~300 ms after the event, not after opening (${lived} ms)`)
})

t.test('an unknown uuid still opens a silent stream that idle-closes', async (t) => {
  const { url, control } = await startSandbox(t, { idleCloseMs: 200 })
  const stream = await readRaw(`${url}/orders/00000000-0000-4000-8000-000000000000/status-stream`)
  t.equal(stream.status, 200)
  t.equal(control.openStreams('00000000-0000-4000-8000-000000000000'), 1)
  await stream.ended
  t.equal(stream.text(), '\n')
  const garbage = await readRaw(`${url}/orders/not-a-uuid/status-stream`)
  t.equal(garbage.status, 200)
  await garbage.ended
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

t.test('closing the app ends open streams (the process can exit)', async (t) => {
  const { app } = buildSandbox()
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const stream = await readRaw(`http://127.0.0.1:${port}/orders/x/status-stream`)
  await stream.until('the opening empty line', (x) => x === '\n')
  await app.close()
  await stream.ended
  t.pass('stream ended on close')
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
