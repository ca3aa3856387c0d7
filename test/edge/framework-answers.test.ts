// Every answer of the public port is a problem document with an x-request-id, including the ones
// Fastify's router and Node's HTTP parser would write themselves, and slow clients are cut off at
// HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS without touching open streams. Raw sockets throughout:
// no HTTP client library sends these requests.
import t, { type Test } from 'tap'
import { MAX_URL_LENGTH } from '../../src/edge/url-limits.js'
import { startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'
import { heartbeats, readRaw } from '../helpers/sse.js'
import { streamGateway } from '../status-stream/setup.js'
import { type RawAnswer, rawConnection, rawExchange } from './raw-http.js'

const UUID = '0b6c6f1e-6f0a-4d7c-9a57-1c3f1e2d4b5a'

/** The checks every refused request shares: ours, closed, no framework words, security headers. */
function assertOurs(t: Test, res: RawAnswer, code: Parameters<typeof assertProblem>[2]) {
  const body = assertProblem(t, res, code)
  t.match(res.headers['x-request-id'], /^[\w.-]{1,128}$/, 'an x-request-id')
  t.notMatch(res.body, /FST_|Client Error|Bad Request|HPE_|ERR_HTTP/, 'no framework code or message')
  t.equal(res.headers['x-content-type-options'], 'nosniff', 'the security headers too')
  return body
}

t.test(
  'a malformed URL or a too long path parameter is a problem document, not a framework answer',
  async (t) => {
    const { url, logs } = await startGateway(t, { listen: true })
    const request = (target: string) =>
      rawExchange(url, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)

    const badUrl = assertOurs(t, await request('/api/z_.%'), 'VALIDATION_FAILED')
    t.same(badUrl.errors, [{ path: 'url', message: 'is not a valid URL (malformed percent-encoding)' }])
    assertOurs(t, await request(`/api/v1/orders/${UUID}%`), 'VALIDATION_FAILED')
    assertOurs(t, await request(`/api/v1/orders/${'a'.repeat(200)}`), 'URI_TOO_LONG')
    assertOurs(t, await request(`/api/v1/tokens?q=${'a'.repeat(MAX_URL_LENGTH)}`), 'URI_TOO_LONG')
    assertOurs(t, await request(`/api/${'a'.repeat(MAX_URL_LENGTH)}`), 'URI_TOO_LONG')
    assertOurs(t, await request(`/api/v1/tokens?q=${'a'.repeat(20_000)}`), 'URI_TOO_LONG')

    // The router's refusals are logged as every other request is: one line, the same fields.
    await request('/api/v1/chains')
    const completed = logs.lines().filter((l) => l.msg === 'request completed')
    const routed = completed.find((l) => l.route === '/api/v1/chains')
    const refused = completed.filter((l) => l.code === 'VALIDATION_FAILED' && l.route === null)
    t.equal(refused.length, 2, 'one line per refused request')
    for (const line of refused) {
      t.same(
        Object.keys(line).sort(),
        Object.keys({ ...routed, code: 1 }).sort(),
        'the fields of a routed line',
      )
      t.match(line, { ms: Number, upstreamMs: 0, traceId: /^[0-9a-f]{32}$/ })
    }
  },
)

t.test("the HTTP parser's refusals are problem documents, and the connection is closed", async (t) => {
  const { url, logs } = await startGateway(t, { listen: true })
  const nonAscii = Buffer.concat([
    Buffer.from('GET /api/v1/tokens/'),
    Buffer.from([0xc3, 0xa9, 0xff]),
    Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
  ])
  assertOurs(t, await rawExchange(url, nonAscii), 'VALIDATION_FAILED')
  assertOurs(t, await rawExchange(url, 'NOT AN HTTP REQUEST\r\n\r\n'), 'VALIDATION_FAILED')

  const bigHeaders = `GET /api/v1/chains HTTP/1.1\r\nHost: x\r\nx-filler: ${'a'.repeat(64 * 1024)}\r\n\r\n`
  assertOurs(t, await rawExchange(url, bigHeaders), 'HEADERS_TOO_LARGE')

  const refused = logs.lines().filter((l) => l.msg === 'request refused by the parser')
  t.same(
    refused.map((l) => l.code),
    ['VALIDATION_FAILED', 'VALIDATION_FAILED', 'HEADERS_TOO_LARGE'],
    'each refusal is logged with its code',
  )
})

t.test(
  'a client sending its headers a byte at a time gets 408 and is closed at HEADERS_TIMEOUT_MS',
  async (t) => {
    const { url } = await startGateway(t, {
      listen: true,
      env: { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' },
    })
    const head = 'GET /api/v1/chains HTTP/1.1\r\nHost: x\r\nx-slow: '
    const connection = rawConnection(url)
    let sent = 0
    const drip = setInterval(() => {
      if (!connection.socket.destroyed) connection.socket.write(head[sent++ % head.length] ?? 'a')
    }, 25)
    const res = await connection.closed
    clearInterval(drip)
    assertOurs(t, res, 'REQUEST_TIMEOUT')
    t.equal(res.headers.connection, 'close')
    // A correctness bound, not a speed figure: without a configured sweep, Node checked every 30 s.
    t.ok(res.closedAfterMs >= 250 && res.closedAfterMs < 2_000, `closed after ${res.closedAfterMs} ms`)
  },
)

t.test('a body that stops arriving gets 408 at REQUEST_TIMEOUT_MS', async (t) => {
  const { url } = await startGateway(t, {
    listen: true,
    env: { HEADERS_TIMEOUT_MS: '200', REQUEST_TIMEOUT_MS: '400' },
  })
  const connection = rawConnection(url)
  connection.socket.write(
    'POST /api/v1/orders/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  )
  const res = await connection.closed
  assertOurs(t, res, 'REQUEST_TIMEOUT')
  t.ok(res.closedAfterMs >= 350 && res.closedAfterMs < 2_000, `closed after ${res.closedAfterMs} ms`)
})

t.test('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS', async (t) => {
  const { url } = await startGateway(t, { listen: true, env: { KEEP_ALIVE_TIMEOUT_MS: '300' } })
  const connection = rawConnection(url)
  connection.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
  const res = await connection.closed
  t.equal(res.statusCode, 200, 'the request was answered')
  t.ok(res.closedAfterMs >= 250 && res.closedAfterMs < 2_000, `closed after ${res.closedAfterMs} ms idle`)
})

t.test('an open stream outlives REQUEST_TIMEOUT_MS and HEADERS_TIMEOUT_MS', async (t) => {
  const gw = await streamGateway(t, {
    env: { HEADERS_TIMEOUT_MS: '100', REQUEST_TIMEOUT_MS: '200', SSE_HEARTBEAT_MS: '100' },
  })
  const uuid = await gw.newOrder()
  const stream = await readRaw(gw.streamUrl(uuid))
  t.teardown(() => stream.close())
  // A request opened after the stream whose body never comes: the sweep that cuts it at
  // REQUEST_TIMEOUT_MS would have cut the older stream by then, were streams held to the limits.
  const late = rawConnection(gw.url)
  late.socket.write(
    'POST /api/v1/orders/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  )
  assertOurs(t, await late.closed, 'REQUEST_TIMEOUT')
  const beatsAtCut = heartbeats(stream.text())
  // Rejects if the stream ends first.
  const text = await stream.until('a heartbeat after the cut', (text) => heartbeats(text) > beatsAtCut)
  t.ok(heartbeats(text) > beatsAtCut, 'the stream is still open, and beating, after the cut')
})
