// Telemetry an operator can use: health probes start no trace; an upstream attempt is counted and
// spanned only when a request was sent, and calls the breaker, the cool-down or the call budget
// refused are counted apart by reason; gateway_build_info says what the instance runs.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { startOtlpReceiver } from '../helpers/otlp-receiver.js'
import { assertProblem } from '../helpers/problem.js'
import { quoteUrl } from '../helpers/quota.js'

const CLIENT = 3
const READ_ROUTE = 'GET /v1/orders/:uuid'

/** The sum of a metric's samples whose labels include `labels`. */
async function total(
  app: { metrics: { registry: { metrics(): Promise<string> } } },
  name: string,
  labels: Record<string, string>,
) {
  let sum = 0
  for (const line of (await app.metrics.registry.metrics()).split('\n')) {
    if (!line.startsWith(`${name}{`)) continue
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      sum += Number(line.split(' ').pop())
  }
  return sum
}

t.test('probes start no trace; an API request does', async (t) => {
  const receiver = await startOtlpReceiver(t)
  const gw = await startGateway(t, {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    deps: { exportTuning: { scheduledDelayMs: 20 } },
  })
  for (let i = 0; i < 5; i++) {
    t.equal((await gw.app.inject({ url: '/readyz' })).statusCode, 200)
    t.equal((await gw.app.inject({ url: '/healthz' })).statusCode, 200)
  }
  t.equal((await gw.app.inject({ url: '/api/v1/chains' })).statusCode, 200)
  await eventually('the API request span', () => receiver.spans.some((s) => s.name === 'GET /api/v1/chains'))
  t.same(
    receiver.spans.filter((s) => /healthz|readyz/.test(s.name)).map((s) => s.name),
    [],
    'no span for a probe',
  )
})

t.test('calls the open breaker refused are counted apart: no attempt, no span, nothing sent', async (t) => {
  const receiver = await startOtlpReceiver(t)
  const gw = await startGateway(t, {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    deps: {
      exportTuning: { scheduledDelayMs: 20 },
      upstreamTuning: { retries: 0, breakerThreshold: 2, breakerOpenMs: 600_000 },
    },
  })
  gw.sandbox.control.fault(READ_ROUTE, { kind: 'error500', count: 2 })
  const read = () => gw.app.inject({ url: `/api/v1/orders/${crypto.randomUUID()}` })
  for (let i = 0; i < 2; i++) assertProblem(t, await read(), 'UPSTREAM_ERROR')
  for (let i = 0; i < 3; i++) assertProblem(t, await read(), 'UPSTREAM_UNAVAILABLE')

  t.equal(gw.sandbox.control.requestsTo(READ_ROUTE).length, 2, 'the upstream saw two requests')
  const attempts = await total(gw.app, 'gateway_upstream_call_duration_seconds_count', {
    operation: 'orderRead',
  })
  t.equal(attempts, 2, 'two attempts counted')
  t.equal(
    await total(gw.app, 'gateway_upstream_calls_refused_total', {
      operation: 'orderRead',
      reason: 'breaker',
    }),
    3,
    'three refusals, by reason',
  )
  await eventually(
    'five request spans',
    () => receiver.spans.filter((s) => s.name.includes('/api/v1/orders')).length === 5,
  )
  const calls = receiver.spans.filter((s) => s.kind === CLIENT && s.name.includes('orderRead'))
  t.equal(calls.length, 2, 'an upstream span only for a call that was sent')
})

t.test('refusals by the call budget and by the cool-down after a 429 are counted by reason', async (t) => {
  const clock = fakeClock()
  const gw = await startGateway(t, { env: { UPSTREAM_MAX_RPS: '1' }, deps: { clock } })
  const quote = () => gw.app.inject({ url: quoteUrl(gw.sandbox.control.tokens(), 1) })
  assertProblem(t, await quote(), 'UPSTREAM_UNAVAILABLE')
  t.equal(
    await total(gw.app, 'gateway_upstream_calls_refused_total', { operation: 'quote', reason: 'budget' }),
    1,
  )

  clock.advance(1_000)
  gw.sandbox.control.fault('GET /v1/tokens/quote', {
    kind: 'status',
    status: 429,
    headers: { 'retry-after': '30' },
    body: '',
  })
  assertProblem(t, await quote(), 'UPSTREAM_UNAVAILABLE')
  clock.advance(1_000)
  assertProblem(t, await quote(), 'UPSTREAM_UNAVAILABLE')
  t.equal(
    await total(gw.app, 'gateway_upstream_calls_refused_total', { operation: 'quote', reason: 'cool_down' }),
    1,
  )
  t.equal(gw.sandbox.control.requestsTo('GET /v1/tokens/quote').length, 1, 'only the 429 was sent')
  t.equal(await total(gw.app, 'gateway_upstream_call_duration_seconds_count', { operation: 'quote' }), 1)
})

t.test('gateway_build_info names the version and the Node.js line', async (t) => {
  const gw = await startGateway(t)
  const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  t.equal(await total(gw.app, 'gateway_build_info', { version, node: process.versions.node }), 1)
})
