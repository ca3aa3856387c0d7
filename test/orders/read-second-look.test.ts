// The upstream's not-found answer for an order is its generic 500 but for casing, so one transient
// 500 must not tell a user their order does not exist; and callers sharing a coalesced read each keep
// their own deadline.
import t from 'tap'
import type { AppDeps } from '../../src/app.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { upstreamOrder } from '../helpers/upstream-order.js'
import { assertProblem } from '../helpers/problem.js'

const READ = 'GET /v1/orders/:uuid'
/** A generic 500 with the same members as the not-found answer, differing only in casing. */
const GENERIC_500 = {
  kind: 'status' as const,
  status: 500,
  body: '{"statusCode":500,"message":"Internal server error"}',
  headers: { 'content-type': 'application/json; charset=utf-8' },
}

async function withOrder(
  t: Parameters<typeof startGateway>[0],
  env?: Record<string, string>,
  deps?: AppDeps,
) {
  const gw = await startGateway(t, { env, deps, listen: true })
  // Made at the upstream: one created through the gateway is watched, and the watch reads it too.
  const uuid = await upstreamOrder(gw.sandbox, gw.config.upstream.tenantKey ?? '')
  gw.sandbox.control.clearRequests()
  return { ...gw, uuid }
}

t.test('one generic 500 on an order read, then the order: 200, not ORDER_NOT_FOUND', async (t) => {
  const { app, uuid, sandbox } = await withOrder(t)
  sandbox.control.fault(READ, GENERIC_500)
  const res = await app.inject(`/api/v1/orders/${uuid}`)
  t.equal(res.statusCode, 200)
  t.equal(res.json().uuid, uuid)
  t.equal(sandbox.control.requestsTo(READ).length, 2, 'asked once more')
})

t.test('the status stream does not call an order unknown on one generic 500 either', async (t) => {
  const { url, uuid, sandbox } = await withOrder(t)
  sandbox.control.fault(READ, GENERIC_500)
  const controller = new AbortController()
  const res = await fetch(`${url}/api/orders/${uuid}/status-stream`, { signal: controller.signal })
  t.equal(res.status, 200)
  t.match(res.headers.get('content-type'), /^text\/event-stream/)
  controller.abort()
})

t.test('an order the upstream twice says it does not know is ORDER_NOT_FOUND', async (t) => {
  const { app, sandbox } = await withOrder(t)
  assertProblem(t, await app.inject(`/api/v1/orders/${crypto.randomUUID()}`), 'ORDER_NOT_FOUND')
  t.equal(sandbox.control.requestsTo(READ).length, 2)
})

t.test('a caller joining a shared read keeps its own deadline and timing', async (t) => {
  // Deadlines are read from the injected clock; an upstream call's own timer runs in real time.
  const clock = fakeClock()
  const { app, url, uuid, sandbox, logs } = await withOrder(t, { UPSTREAM_TIMEOUT_MS: '1000' }, { clock })
  sandbox.control.fault(READ, { kind: 'hang' })
  const first = fetch(`${url}/api/v1/orders/${uuid}`, { headers: { 'x-request-id': 'first-caller' } })
  await eventually('the read at the upstream', () => sandbox.control.requestsTo(READ).length === 1)
  // By the clock the first caller's time is up, while its call, held by the upstream, runs on until
  // its own timer ends it. A second caller asking now joins that call, with all its time ahead.
  clock.advance(1000)
  const second = fetch(`${url}/api/v1/orders/${uuid}`, { headers: { 'x-request-id': 'second-caller' } })

  t.equal((await first).status, 504, 'the first caller gets its timeout at its deadline')
  const joined = await second
  t.equal(joined.status, 200, 'the second, with time left, asked again itself')
  t.equal(((await joined.json()) as { uuid: string }).uuid, uuid)
  t.equal(sandbox.control.requestsTo(READ).length, 2, 'one shared call, then one of its own')

  const lineOf = (id: string) => logs.lines().find((l) => l.requestId === id && l.msg === 'request completed')
  t.ok(Number(lineOf('second-caller')?.upstreamMs) >= 400, 'the wait counts as its upstream time')
  t.ok(app.upstream.breaker.current === 'closed')
})
