// Tracing (docs/operations.md): a client's W3C traceparent is continued through the gateway to the
// upstream; with an OTLP endpoint, the request's and the upstream call's spans are exported.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { startOtlpReceiver } from '../helpers/otlp-receiver.js'
import { picks } from '../helpers/picks.js'

const QUOTE_ROUTE = 'GET /v1/tokens/quote'
const SERVER = 2
const CLIENT = 3
const ERROR = 2

function clientTrace() {
  const traceId = randomBytes(16).toString('hex')
  const parentId = randomBytes(8).toString('hex')
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` }
}

async function tracedGateway(t: Parameters<typeof startGateway>[0], env: Record<string, string> = {}) {
  const receiver = await startOtlpReceiver(t)
  const gw = await startGateway(t, {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gateway-under-test', ...env },
    deps: { exportTuning: { scheduledDelayMs: 20 } },
  })
  const p = picks(gw.sandbox.control.tokens())
  const quoteUrl = `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=100&amountIsDeposit=true`
  return { ...gw, receiver, quoteUrl }
}

const traceIdOf = (traceparent: unknown) => String(traceparent).split('-')[1]
const parentIdOf = (traceparent: unknown) => String(traceparent).split('-')[2]

t.test(
  "a quote's span and its upstream call's span are exported in the client's trace, and the upstream gets that trace",
  async (t) => {
    const gw = await tracedGateway(t)
    const client = clientTrace()
    const res = await gw.app.inject({ url: gw.quoteUrl, headers: { traceparent: client.traceparent } })
    t.equal(res.statusCode, 200)

    const mine = () => gw.receiver.spans.filter((s) => s.traceId === client.traceId)
    await eventually('both spans exported', () => mine().length >= 2)
    t.equal(gw.receiver.contentTypes[0], 'application/json', 'OTLP/HTTP with JSON')
    const server = mine().find((s) => s.kind === SERVER)
    const call = mine().find((s) => s.kind === CLIENT)
    t.match(server, {
      service: 'gateway-under-test',
      name: 'GET /api/v1/tokens/quote',
      parentSpanId: client.parentId,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/api/v1/tokens/quote',
        'http.response.status_code': 200,
      },
    })
    t.notOk(server?.attributes['gateway.problem.code'], 'no problem code on a success')
    t.match(call, {
      service: 'gateway-under-test',
      name: 'GET quote',
      parentSpanId: server?.spanId,
      attributes: {
        'gateway.upstream.operation': 'quote',
        'gateway.upstream.attempts': 1,
        'http.response.status_code': 200,
      },
    })

    const [sent] = gw.sandbox.control.requestsTo(QUOTE_ROUTE)
    t.equal(traceIdOf(sent?.headers.traceparent), client.traceId, "the upstream's request log has the trace")
    t.equal(parentIdOf(sent?.headers.traceparent), call?.spanId, 'as a child of the upstream call span')
    const line = gw.logs.lines().find((l) => l.msg === 'request completed')
    t.equal(line?.traceId, client.traceId, 'the request log line carries the trace id')
  },
)

t.test(
  "a failing quote's spans carry the problem code, the upstream's status and the number of attempts",
  async (t) => {
    const gw = await tracedGateway(t)
    gw.sandbox.control.fault(QUOTE_ROUTE, { kind: 'error500', count: 3 })
    const client = clientTrace()
    const res = await gw.app.inject({ url: gw.quoteUrl, headers: { traceparent: client.traceparent } })
    t.equal(res.json().code, 'UPSTREAM_ERROR')
    const attempts = gw.sandbox.control.requestsTo(QUOTE_ROUTE)
    t.equal(attempts.length, 3, 'the call was tried three times')
    t.equal(
      new Set(attempts.map((r) => r.headers.traceparent)).size,
      1,
      'every attempt sends the same traceparent',
    )

    const mine = () => gw.receiver.spans.filter((s) => s.traceId === client.traceId)
    await eventually('both spans exported', () => mine().length >= 2)
    t.match(
      mine().find((s) => s.kind === SERVER),
      {
        status: ERROR,
        attributes: { 'http.response.status_code': 502, 'gateway.problem.code': 'UPSTREAM_ERROR' },
      },
    )
    t.match(
      mine().find((s) => s.kind === CLIENT),
      {
        status: ERROR,
        attributes: {
          'gateway.upstream.attempts': 3,
          'http.response.status_code': 500,
          'gateway.problem.code': 'UPSTREAM_ERROR',
        },
      },
    )
  },
)

t.test('a request without traceparent starts a trace, exported and sent upstream', async (t) => {
  const gw = await tracedGateway(t)
  await gw.app.inject(gw.quoteUrl)
  const [sent] = gw.sandbox.control.requestsTo(QUOTE_ROUTE)
  const traceId = traceIdOf(sent?.headers.traceparent)
  t.match(traceId, /^[0-9a-f]{32}$/)
  await eventually(
    'the spans of that trace',
    () => gw.receiver.spans.filter((s) => s.traceId === traceId).length >= 2,
  )
  const server = gw.receiver.spans.find((s) => s.traceId === traceId && s.kind === SERVER)
  t.equal(server?.parentSpanId, undefined, 'the request span is the root')
})

t.test('with OTEL_TRACES_EXPORTER=none nothing is exported, even with an endpoint', async (t) => {
  const gw = await tracedGateway(t, { OTEL_TRACES_EXPORTER: 'none' })
  await gw.app.inject({ url: gw.quoteUrl, headers: { traceparent: clientTrace().traceparent } })
  await gw.app.close()
  t.same(gw.receiver.spans, [], 'nothing arrived, even after the app closed (which flushes)')
})

t.test(
  "without an endpoint no exporter is set up, yet the client's traceparent reaches the upstream unchanged and the log line carries its trace id",
  async (t) => {
    const gw = await startGateway(t, { env: { OTEL_SERVICE_NAME: 'gateway-under-test' } })
    t.equal(gw.config.tracing, undefined, 'no exporter is configured')
    const p = picks(gw.sandbox.control.tokens())
    const client = clientTrace()
    await gw.app.inject({
      url: `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=100&amountIsDeposit=true`,
      headers: { traceparent: client.traceparent },
    })
    const [sent] = gw.sandbox.control.requestsTo(QUOTE_ROUTE)
    t.equal(sent?.headers.traceparent, client.traceparent, 'passed on as a transparent hop would')
    const line = gw.logs.lines().find((l) => l.msg === 'request completed')
    t.equal(line?.traceId, client.traceId)
  },
)

t.test(
  'without an endpoint or a client traceparent, the upstream still gets a new, unsampled trace',
  async (t) => {
    const gw = await startGateway(t)
    await gw.app.inject('/api/v1/tokens?symbol=USDT')
    await gw.app.inject('/api/v1/tokens?symbol=ETH')
    const catalogLoad = gw.sandbox.control.requestsTo('GET /v1/tokens')[0]
    t.match(catalogLoad?.headers.traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/, 'a background call too')
    const lines = gw.logs.lines().filter((l) => l.msg === 'request completed')
    t.equal(lines.length, 2)
    t.match(lines[0]?.traceId, /^[0-9a-f]{32}$/)
    t.not(lines[0]?.traceId, lines[1]?.traceId, 'one trace per request')
  },
)

t.test("without an endpoint, a request's upstream calls carry the trace id its log line names", async (t) => {
  const gw = await startGateway(t)
  const p = picks(gw.sandbox.control.tokens())
  const quoteUrl = `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=100&amountIsDeposit=true`
  await gw.app.inject(quoteUrl)
  await gw.app.inject(quoteUrl)
  const sent = gw.sandbox.control.requestsTo(QUOTE_ROUTE).map((r) => String(r.headers.traceparent))
  const logged = gw.logs
    .lines()
    .filter((l) => l.msg === 'request completed' && String(l.url).includes('/quote'))
    .map((l) => l.traceId)
  t.equal(sent.length, 2)
  t.same(sent.map(traceIdOf), logged, "each call sends its request's trace id")
  for (const traceparent of sent) t.match(traceparent, /^00-[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-00$/)
})

t.test('a browser on an allowed origin may send its traceparent: the preflight allows it', async (t) => {
  const partner = 'https://partner.example'
  const { app } = await startGateway(t, { env: { ALLOWED_ORIGINS: partner } })
  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/api/v1/tokens/quote',
    headers: {
      origin: partner,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'traceparent,tracestate',
    },
  })
  t.equal(preflight.statusCode, 204)
  t.match(preflight.headers['access-control-allow-headers'], /\btraceparent\b/)
  t.match(preflight.headers['access-control-allow-headers'], /\btracestate\b/)
})

t.test('a traceparent that is not W3C Trace Context is not passed on: a new trace starts', async (t) => {
  const gw = await startGateway(t)
  const bad = [
    '00-00000000000000000000000000000000-b7ad6b7169203331-01',
    '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01',
    'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra',
    '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01',
    'not a traceparent',
  ]
  for (const traceparent of bad) {
    await gw.app.inject({ url: '/api/v1/chains', headers: { traceparent } })
  }
  const ids = gw.logs
    .lines()
    .filter((l) => l.msg === 'request completed')
    .map((l) => l.traceId)
  t.equal(ids.length, bad.length)
  t.ok(
    ids.every(
      (id) =>
        typeof id === 'string' && /^[0-9a-f]{32}$/.test(id) && id !== '0af7651916cd43dd8448eb211c80319c',
    ),
    'each request got a trace of its own',
  )
  await gw.app.inject({
    url: '/api/v1/chains',
    headers: { traceparent: '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future' },
  })
  const last = gw.logs.lines().findLast((l) => l.msg === 'request completed')
  t.equal(last?.traceId, '0af7651916cd43dd8448eb211c80319c', 'a later version with more fields is continued')
})
