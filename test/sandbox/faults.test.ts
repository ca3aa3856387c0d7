// Every fault kind, on the route it was queued for, for `count` requests; and the request log. The
// timed faults (delay, trickle, hang) run on a fake clock the tests move.
import t from 'tap'
import { request } from 'undici'
import { buildSandbox } from '../../src/sandbox/app.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startSandbox } from '../helpers/sandbox.js'
import { readRaw } from '../helpers/sse.js'
import { call, createOrder, settledBefore, TENANT } from './http.js'

const generic500 = { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' }
const CREATE = 'POST /v1/orders/create' as const
const TOKENS = 'GET /v1/tokens' as const
const NEW_ORDER = {
  depositTokenId: 2,
  settleTokenId: 3,
  receivingAddress: 'So11111111111111111111111111111111111111112',
  intendedAmount: 1,
  intendedIsDeposit: true,
}

t.test('error500 answers the generic envelope without performing the action, count times', async (t) => {
  const { url, control } = await startSandbox(t)
  control.fault(CREATE, { kind: 'error500', count: 2 })
  for (let i = 0; i < 2; i++) {
    const res = await call(url, '/v1/orders/create', { headers: TENANT, json: {} })
    t.equal(res.status, 500)
    t.strictSame(res.body, generic500)
  }
  t.equal(control.orders().length, 0, 'no order created')
  await createOrder(url)
  t.equal(control.orders().length, 1, 'the third request is normal')
})

t.test('faults apply only to their route, in queue order, and clearFaults drops them', async (t) => {
  const { url, control } = await startSandbox(t)
  control.fault(TOKENS, { kind: 'status', status: 503, body: 'first' })
  control.fault(TOKENS, { kind: 'status', status: 504, body: 'second' })
  t.equal((await call(url, '/auth/siwx/challenge')).status, 200, 'another route is untouched')
  t.equal((await call(url, '/v1/tokens')).text, 'first')
  t.equal((await call(url, '/v1/tokens')).text, 'second')
  control.fault(TOKENS, { kind: 'error500' })
  control.clearFaults()
  t.equal((await call(url, '/v1/tokens')).status, 200)
  t.throws(() => control.fault(TOKENS, { kind: 'delay', ms: -1 }), 'faults are validated')
})

t.test('delay answers normally after the delay', async (t) => {
  const clock = fakeClock()
  const { url, control } = await startSandbox(t, { clock })
  control.fault(CREATE, { kind: 'delay', ms: 60_000 })
  const created = createOrder(url)
  // The request is recorded and its delay set in one go, before any route runs.
  await eventually('the create received', () => control.requestsTo(CREATE).length === 1)
  clock.advance(59_999)
  t.notOk(await settledBefore(url, created), 'no answer 1 ms before the delay is over')
  t.equal(control.orders().length, 0, 'nor the action')
  clock.advance(1)
  const order = await created
  t.equal(control.order(order.uuid)?.uuid, order.uuid)
})

t.test('badBody is a 200 HTML page; status sends any raw answer with its headers', async (t) => {
  const { url, control } = await startSandbox(t)
  control.fault(TOKENS, { kind: 'badBody' })
  const bad = await call(url, '/v1/tokens')
  t.equal(bad.status, 200)
  t.match(bad.headers['content-type'], /^text\/html/)
  t.equal(bad.body, undefined, 'not JSON')
  control.fault('GET /v1/tokens/quote', {
    kind: 'status',
    status: 502,
    body: '<html><body>502 Bad Gateway</body></html>',
    headers: { 'content-type': 'text/html' },
  })
  const gateway = await call(url, '/v1/tokens/quote', { headers: TENANT })
  t.equal(gateway.status, 502)
  t.equal(gateway.text, '<html><body>502 Bad Gateway</body></html>')
  t.equal(gateway.headers['content-type'], 'text/html')
  control.fault('GET /v1/orders/:uuid', { kind: 'status', status: 429, headers: { 'retry-after': '7' } })
  const limited = await call(url, '/v1/orders/whatever')
  t.equal(limited.status, 429)
  t.equal(limited.headers['retry-after'], '7')
})

t.test('drop destroys the socket before acting: no answer, no order', async (t) => {
  const { url, control } = await startSandbox(t)
  control.fault(CREATE, { kind: 'drop' })
  await t.rejects(createOrder(url), /other side closed|socket|ECONNRESET/)
  t.equal(control.orders().length, 0)
  t.equal(control.requestsTo(CREATE).length, 1, 'the request was still received and recorded')
})

t.test('dropAfter performs the action, then destroys the socket: the order exists', async (t) => {
  const { url, control } = await startSandbox(t)
  control.fault(CREATE, { kind: 'dropAfter' })
  await t.rejects(createOrder(url), /other side closed|socket|ECONNRESET/)
  t.equal(control.orders().length, 1, 'the order was really created')
  t.equal(control.orders()[0]?.status, 'AWAITING_USER_DEPOSIT')
  t.match(control.requestsTo(CREATE)[0]?.body, { depositTokenId: 2 }, 'the body was parsed and recorded')
})

t.test('faults on the stream route: error500, and dropAfter opening then dropping the stream', async (t) => {
  const { url, control } = await startSandbox(t)
  const path = '/orders/00000000-0000-4000-8000-000000000000/status-stream'
  control.fault('GET /orders/:orderUUID/status-stream', { kind: 'error500' })
  t.strictSame((await call(url, path)).body, generic500)
  control.fault('GET /orders/:orderUUID/status-stream', { kind: 'dropAfter' })
  const outcome = await readRaw(`${url}${path}`).then(
    (stream) => stream.ended.then(() => `ended after ${JSON.stringify(stream.text())}`),
    () => 'failed',
  )
  t.match(outcome, /^(failed|ended after "(\\n)?")$/, `the connection is cut (${outcome})`)
  await eventually('the dropped stream gone', () => control.openStreams() === 0)
  t.equal(control.openStreams(), 0, 'the dropped stream is gone')
})

t.test('trickle performs the action, then sends the answer in pieces, one every ms / pieces', async (t) => {
  const clock = fakeClock()
  const { url, control } = await startSandbox(t, { clock })
  control.fault(CREATE, { kind: 'trickle', ms: 400, pieces: 8 })
  const timers = clock.pending()
  const answer = request(`${url}/v1/orders/create`, {
    method: 'POST',
    headers: { ...TENANT, 'content-type': 'application/json' },
    body: JSON.stringify(NEW_ORDER),
  })
  await eventually('the first piece’s wait', () => clock.pending() > timers)
  t.equal(control.orders().length, 1, 'the order exists before any piece is sent')
  await clock.advanceAsync(50)
  const res = await answer
  t.equal(res.statusCode, 201, 'the real status')
  const body = res.body[Symbol.asyncIterator]()
  const pieces: Buffer[] = []
  let reading = body.next()
  // The first piece came with the head, at 50 ms; the others one per 50 ms, the last at 400 ms, not sooner.
  for (let step = 1; step <= 8; step++) {
    if (step === 8) {
      await clock.advanceAsync(49)
      t.notOk(await settledBefore(url, reading), 'no last piece 1 ms before ms')
      await clock.advanceAsync(1)
    } else if (step > 1) {
      await clock.advanceAsync(50)
    }
    const read = await reading
    t.notOk(read.done, `piece ${step} at ${step * 50} ms`)
    pieces.push(read.value as Buffer)
    reading = body.next()
  }
  t.ok((await reading).done, 'nothing after the eighth piece')
  const order = JSON.parse(Buffer.concat(pieces).toString()) as { uuid: string }
  t.equal(order.uuid, control.orders()[0]?.uuid, 'the whole, normal body in the end')
  t.equal((await call(url, '/v1/orders/create', { headers: TENANT, json: {} })).status, 500, 'once only')
})

t.test('a trickled answer is cut when the sandbox closes', async (t) => {
  const clock = fakeClock()
  const { app, control } = buildSandbox({ clock })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  control.fault(TOKENS, { kind: 'trickle', ms: 60_000 })
  const timers = clock.pending()
  const answer = request(`${url}/v1/tokens`)
  await eventually('the first piece’s wait', () => clock.pending() > timers)
  await clock.advanceAsync(3000)
  const res = await answer
  t.equal(res.statusCode, 200)
  const read = res.body.text().then(
    () => 'complete',
    () => 'cut',
  )
  await app.close()
  t.equal(await read, 'cut', 'the client sees the answer fail, not a short body')
  t.equal(clock.pending(), 0, 'the next piece’s wait is cancelled')
})

t.test('hang never answers; closing the sandbox releases it (and pending delays)', async (t) => {
  const clock = fakeClock()
  const { app, control } = buildSandbox({ clock })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  control.fault(TOKENS, { kind: 'hang' })
  control.fault('GET /auth/siwx/challenge', { kind: 'delay', ms: 60_000 })
  const hung = request(`${url}/v1/tokens`).then(
    () => 'answered',
    () => 'failed',
  )
  const delayed = request(`${url}/auth/siwx/challenge`).then(
    () => 'answered',
    () => 'failed',
  )
  await eventually('both received', () => control.requests.length === 2)
  clock.advance(59_999)
  t.notOk(
    await settledBefore(url, Promise.race([hung, delayed])),
    'neither answered before the delay is over',
  )
  // The clock stands still from here: a close waiting for the delay would never end.
  await app.close()
  t.equal(clock.pending(), 0, 'the delay is cancelled')
  t.equal(await hung, 'failed')
  t.equal(await delayed, 'failed')
})

t.test(
  'the request log: every spec request in order, with method, url, path, route, headers, body, time',
  async (t) => {
    const { url, control } = await startSandbox(t)
    await call(url, '/v1/tokens/quote?depositTokenId=2&settleTokenId=3&amount=1&amountIsDeposit=true', {
      headers: { ...TENANT, 'X-Custom': 'Yes' },
    })
    await createOrder(url)
    await call(url, '/nope?x=1')
    await call(url, '/__sandbox/orders')
    const [quote, create, missing, ...rest] = control.requests
    t.equal(rest.length, 0, 'control routes are not recorded')
    t.match(quote, {
      method: 'GET',
      url: '/v1/tokens/quote?depositTokenId=2&settleTokenId=3&amount=1&amountIsDeposit=true',
      path: '/v1/tokens/quote',
      route: 'GET /v1/tokens/quote',
      headers: { 'x-tenant-api-key': 'sandbox-tenant-key', 'x-custom': 'Yes' },
      body: undefined,
    })
    t.ok(Math.abs((quote?.at ?? 0) - control.now()) < 5000, 'at is the sandbox clock')
    t.match(create, { method: 'POST', route: CREATE, body: { depositTokenId: 2, settleTokenId: 3 } })
    t.match(missing, { route: null, path: '/nope', url: '/nope?x=1' })
    t.equal(control.requestsTo(CREATE).length, 1)
    const log = control.requests
    control.clearRequests()
    t.equal(control.requests.length, 0)
    t.equal(log.length, 0, 'cleared in place')
  },
)
