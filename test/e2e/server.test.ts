import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { runGateway } from '../helpers/process.js'

t.test('npm start without UPSTREAM_URL starts the sandbox and says so in its first log line', async (t) => {
  const gw = runGateway({ PORT: '0', HOST: '127.0.0.1' })
  t.teardown(() => gw.child.kill('SIGKILL'))
  const listening = await gw.waitFor((l) => String(l.msg).startsWith('Server listening'))
  t.match(gw.lines[0]?.msg, /UPSTREAM_URL is not set: started the built-in sandbox upstream/)
  const url = String(listening.msg).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0]
  t.ok(url, 'listening address logged')
  const health = await fetch(`${url}/healthz`)
  t.equal(health.status, 200)
  const tokens = await fetch(`${url}/api/v1/orders/${crypto.randomUUID()}`)
  t.equal(tokens.status, 404, 'the sandbox answers through the gateway')
  t.equal((await fetch(`${url}/`)).status, 200, 'the demo page, bundled from the sources')
  t.equal((await fetch(`${url}/api/sandbox/streams`)).status, 200, "the sandbox's controls, mounted")
  t.equal(gw.stderr(), '', 'nothing on stderr: no deprecation or other warning')
})

t.test(
  'production without UPSTREAM_URL, SESSION_SECRET or PUBLIC_ORIGIN refuses to start, naming them',
  async (t) => {
    const gw = runGateway({ NODE_ENV: 'production', PORT: '0' })
    t.equal(await gw.exited, 1)
    t.match(gw.stderr(), /UPSTREAM_URL/)
    t.match(gw.stderr(), /SESSION_SECRET/)
    t.match(gw.stderr(), /PUBLIC_ORIGIN: is required in production/)
  },
)

t.test('a bad variable stops start-up with a message naming it', async (t) => {
  const gw = runGateway({ PORT: 'abc' })
  t.equal(await gw.exited, 1)
  t.match(gw.stderr(), /PORT/)
  const hops = runGateway({ PORT: '0', TRUST_PROXY: '1' })
  t.equal(await hops.exited, 1, 'a hop count in TRUST_PROXY is refused')
  t.match(hops.stderr(), /TRUST_PROXY: a hop count .* addresses or CIDR ranges/)
})

t.test(
  'SIGTERM drains: the in-flight request finishes, new ones are refused, the process exits 0',
  async (t) => {
    // The phase in which /readyz alone says 503 is test/ops/shutdown-phases.test.ts's.
    const gw = runGateway({ PORT: '0', HOST: '127.0.0.1', SHUTDOWN_READY_DELAY_MS: '0' })
    t.teardown(() => gw.child.kill('SIGKILL'))
    const first = await gw.waitFor((l) => typeof l.sandbox === 'string')
    const listening = await gw.waitFor((l) => String(l.msg).startsWith('Server listening'))
    const url = String(listening.msg).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0]
    const fault = await fetch(`${first.sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'GET /v1/orders/:uuid', kind: 'delay', ms: 800 }),
    })
    t.ok(fault.ok, 'fault queued')
    const inFlight = fetch(`${url}/api/v1/orders/${crypto.randomUUID()}`)
    // In flight once the sandbox holds it: the child's sandbox keeps its request log behind its controls.
    const upstreamReads = async () => {
      const res = await fetch(`${first.sandbox}/__sandbox/requests`)
      const log = (await res.json()) as Array<{ route: string }>
      return log.filter((r) => r.route === 'GET /v1/orders/:uuid').length
    }
    await eventually('the read held by the sandbox', async () => (await upstreamReads()) === 1)
    gw.child.kill('SIGTERM')
    const res = await inFlight
    t.equal(res.status, 404, 'the in-flight request got its real answer')
    t.equal(await gw.exited, 0)
    await t.rejects(fetch(`${url}/healthz`), 'no longer accepting')
  },
)
