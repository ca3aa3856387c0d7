// No answer later than UPSTREAM_TIMEOUT_MS (a small margin aside): an attempt is cut at the time left,
// head and body alike, and a retry starts only when the time left can hold it. The bounds below are
// correctness bounds (deadline + 300 ms), not speed figures.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'

const DEADLINE_MS = 2_000
const MARGIN_MS = 300
const READ = 'GET /v1/orders/:uuid'

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

t.test('with the upstream slower than the deadline, the 504 arrives by the deadline', async (t) => {
  const { app, url, sandbox } = await startGateway(t, {
    listen: true,
    env: { UPSTREAM_TIMEOUT_MS: String(DEADLINE_MS) },
  })
  sandbox.control.fault(READ, { kind: 'delay', ms: 5_000, count: 10 })
  const { value: res, ms } = await timed(() => fetch(`${url}/api/v1/orders/${crypto.randomUUID()}`))
  assertProblem(
    t,
    { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() },
    'UPSTREAM_TIMEOUT',
  )
  t.ok(ms < DEADLINE_MS + MARGIN_MS, `answered after ${Math.round(ms)} ms`)
  t.equal(sandbox.control.requestsTo(READ).length, 1, 'no retry started that the time left could not hold')
  t.ok(app.upstream.breaker.current === 'closed', 'one timeout does not open the breaker')
})

t.test('a failure then a hang: the retry is cut at the deadline', async (t) => {
  const { url, sandbox } = await startGateway(t, {
    listen: true,
    env: { UPSTREAM_TIMEOUT_MS: String(DEADLINE_MS) },
  })
  sandbox.control.fault(READ, { kind: 'error500' })
  sandbox.control.fault(READ, { kind: 'hang', count: 5 })
  const { value: res, ms } = await timed(() => fetch(`${url}/api/v1/orders/${crypto.randomUUID()}`))
  t.equal(res.status, 504)
  t.ok(ms < DEADLINE_MS + MARGIN_MS, `answered after ${Math.round(ms)} ms`)
  t.equal(sandbox.control.requestsTo(READ).length, 2, 'the retry went out, and was cut')
})

t.test('an answer whose body trickles in is cut at the deadline', async (t) => {
  // Head at once, then a byte every 200 ms: undici restarts its body timer on every byte.
  const upstream = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const drip = setInterval(() => res.write(' '), 200)
    res.on('close', () => clearInterval(drip))
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    upstream.closeAllConnections()
    upstream.close()
  })
  const { port } = upstream.address() as AddressInfo
  const { url } = await startGateway(t, {
    listen: true,
    env: { UPSTREAM_URL: `http://127.0.0.1:${port}`, UPSTREAM_TIMEOUT_MS: '1500' },
  })
  const { value: res, ms } = await timed(() => fetch(`${url}/api/v1/orders/${crypto.randomUUID()}`))
  t.equal(res.status, 504)
  t.ok(ms < 1_500 + MARGIN_MS, `answered after ${Math.round(ms)} ms`)
})
