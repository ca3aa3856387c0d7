// The shutdown's phases on a real process, over real sockets: on SIGTERM /readyz answers 503 while
// everything is still served on the connections already open (a load balancer's pool); then idle
// keep-alive connections are closed, streams end, and the process exits 0; at the deadline whatever is
// still open is cut, with one line giving the count, and the exit code is still 0.
import http from 'node:http'
import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import { TEST_SESSION_SECRET, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { type GatewayProcess, runGateway } from '../helpers/process.js'
import { startSandbox } from '../helpers/sandbox.js'

const READY_DELAY_MS = 1_500

async function started(t: Test, env: Record<string, string>) {
  const sandbox = await startSandbox(t, { tenantKey: TEST_TENANT_KEY })
  const gw = runGateway({
    HOST: '127.0.0.1',
    PORT: '0',
    UPSTREAM_URL: sandbox.url,
    TENANT_API_KEY: TEST_TENANT_KEY,
    SESSION_SECRET: TEST_SESSION_SECRET,
    SHUTDOWN_READY_DELAY_MS: String(READY_DELAY_MS),
    SSE_RETRY_MS: '100',
    ...env,
  })
  t.teardown(() => {
    if (gw.child.exitCode === null) gw.child.kill('SIGKILL')
  })
  const listening = await gw.waitFor((l) => String(l.msg).startsWith('Server listening'))
  const url = String(listening.msg).match(/http:\/\/127\.0\.0\.1:\d+/)![0]
  return { sandbox, gw, url }
}

/** One request on `agent`: its status, body, and whether it went over a connection already open. */
function get(agent: http.Agent, url: string) {
  return new Promise<{ status: number; body: string; reused: boolean; connection?: string }>(
    (resolve, reject) => {
      const req = http.get(url, { agent }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (body += d))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            reused: req.reusedSocket,
            connection: res.headers.connection,
          }),
        )
      })
      req.on('error', reject)
    },
  )
}

const lineOf = (gw: GatewayProcess, phase: string) => gw.lines.find((l) => l.phase === phase)

t.test('SIGTERM: unready while serving, then keep-alive closed, streams ended, exit 0', async (t) => {
  const { sandbox, gw, url } = await started(t, { SHUTDOWN_TIMEOUT_MS: '8000', SSE_DRAIN_SPREAD_MS: '300' })
  const create = await fetch(`${url}/api/v1/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(orderBody(picks(sandbox.control.tokens()))),
  })
  const { uuid } = (await create.json()) as { uuid: string }

  // A balancer's pooled connection, and a stream.
  const pool = new http.Agent({ keepAlive: true, maxSockets: 1 })
  t.teardown(() => pool.destroy())
  t.equal((await get(pool, `${url}/readyz`)).status, 200)
  const socket = [...Object.values(pool.freeSockets)].flat()[0]!
  let poolClosedAt = 0
  socket.once('close', () => (poolClosedAt = Date.now()))
  // The stream on a keep-alive connection of its own: once ended, that connection is idle too.
  const streams = new http.Agent({ keepAlive: true, maxSockets: 1 })
  t.teardown(() => streams.destroy())
  const streamText = get(streams, `${url}/api/orders/${uuid}/status-stream`).then((r) => r.body)
  await eventually('the stream is open', () => sandbox.control.openStreams(uuid) === 1)

  const signalledAt = Date.now()
  gw.child.kill('SIGTERM')
  let unready = await get(pool, `${url}/readyz`)
  while (unready.status === 200) unready = await get(pool, `${url}/readyz`)
  t.equal(unready.status, 503, '/readyz answers 503 at once')
  t.match(JSON.parse(unready.body), { code: 'SERVICE_UNAVAILABLE', checks: { shutdown: /shutting down/ } })
  const served = await get(pool, `${url}/api/v1/chains`)
  t.equal(served.status, 200, 'while the rest is still served')
  t.ok(served.reused, 'on the connection already open')
  t.not(served.connection, 'close', 'which is kept open')
  t.equal(poolClosedAt, 0)

  t.equal(await gw.exited, 0, 'the process exits 0')
  t.ok(poolClosedAt - signalledAt >= READY_DELAY_MS, 'the pooled connection was closed after the ready delay')
  t.match(await streamText, /: server shutting down; reconnect\n\n$/, 'the stream ended cleanly')
  t.ok(lineOf(gw, 'unready') && lineOf(gw, 'drain'), 'each phase is logged')
  t.notOk(lineOf(gw, 'cut'), 'nothing was cut')
})

t.test(
  'what is still open at the deadline is cut, counted in one warn line, and the exit is 0',
  async (t) => {
    const { sandbox, gw, url } = await started(t, {
      SHUTDOWN_READY_DELAY_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '1000',
      UPSTREAM_TIMEOUT_MS: '120000',
    })
    sandbox.control.fault('GET /v1/orders/:uuid', { kind: 'delay', ms: 60_000 })
    const slow = fetch(`${url}/api/v1/orders/${crypto.randomUUID()}`).then(
      (res) => res.status,
      () => 'cut',
    )
    await eventually(
      'the slow read reached the upstream',
      () => sandbox.control.requestsTo('GET /v1/orders/:uuid').length === 1,
    )
    gw.child.kill('SIGTERM')
    t.equal(await gw.exited, 0, 'exit 0 even so')
    t.equal(await slow, 'cut', 'the request still in flight was cut')
    t.match(lineOf(gw, 'cut'), { level: 40, connections: 1, msg: /cutting 1 open connection/ })
  },
)

t.test('Ctrl-C (SIGINT) in development skips the ready delay: it drains at once and exits 0', async (t) => {
  // A ready delay of ten minutes: a process that waited it would outlive this test's own limit.
  const { gw } = await started(t, { SHUTDOWN_READY_DELAY_MS: '600000' })
  gw.child.kill('SIGINT')
  const code = await Promise.race([
    gw.exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000).unref()),
  ])
  t.equal(code, 0, 'the process exits 0 without waiting the ten minutes')
  t.match(lineOf(gw, 'unready'), { readyDelayMs: 0 }, 'phase 1 was skipped')
  t.ok(lineOf(gw, 'drain'), 'the drain ran')
})
