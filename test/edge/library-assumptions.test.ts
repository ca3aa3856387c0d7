// The assumptions our performance measures make about libraries' behaviour beyond (or at the edge of)
// their documented interfaces, pinned so that the upgrade which breaks one fails here, by name,
// rather than quietly costing speed or memory. docs/performance.md lists each measure and its figure.
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import cookie from '@fastify/cookie'
import Fastify from 'fastify'
import helmet from 'helmet'
import pino from 'pino'
import { Histogram, type Metric, Registry } from 'prom-client'
import t from 'tap'
import { createLogger } from '../../src/edge/logger.js'
import { LATENCY_BUCKETS } from '../../src/observability/metrics.js'
import { RequestLatency } from '../../src/observability/request-latency.js'
import { headersOf } from '../../src/edge/security-headers.js'

async function listen(handler: (res: ServerResponse) => void) {
  const server = createServer((_req, res) => handler(res))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

t.test('sse/response.ts: Node keeps a sent response head in `_header`, as one string', async (t) => {
  let head: unknown
  const { server, url } = await listen((res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    res.flushHeaders()
    head = (res as { _header?: unknown })._header
    res.end()
  })
  t.teardown(() => server.close())
  await (await fetch(url)).text()
  t.type(head, 'string', 'the field the stream flattens exists and holds the head')
  t.match(String(head), /^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: text\/event-stream/i)
})

t.test(
  'edge/security-headers.ts: helmet sets its headers only through setHeader and removeHeader',
  async (t) => {
    const options = { contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } } }
    let real: Record<string, unknown> = {}
    const { server, url } = await listen((res) => {
      helmet(options)({} as never, res as never, () => {
        real = res.getHeaders()
        res.end()
      })
    })
    t.teardown(() => server.close())
    await (await fetch(url)).text()
    t.same(headersOf(options), Object.fromEntries(Object.entries(real).map(([k, v]) => [k, String(v)])))
  },
)

t.test(
  'edge/cookies.ts: @fastify/cookie without its hook leaves cookies unparsed and still sets them',
  async (t) => {
    const app = Fastify()
    await app.register(cookie, { hook: false })
    let seen: unknown = 'untouched'
    app.get('/', (request, reply) => {
      seen = request.cookies
      reply.setCookie('a', 'b').send('ok')
    })
    t.teardown(() => app.close())
    const res = await app.inject({ url: '/', headers: { cookie: 'x=1' } })
    t.equal(seen, null, 'no cookie object until cookiesOf parses one')
    t.match(String(res.headers['set-cookie']), /^a=b/, 'Set-Cookie is still written')
  },
)

t.test(
  'edge/log-batches.ts: pino.destination with `sync: true` has written a batch when write returns',
  async (t) => {
    const file = join(mkdtempSync(join(tmpdir(), 'sync-destination-')), 'out.log')
    const destination = pino.destination({ dest: file, sync: true })
    t.teardown(() => destination.end())
    const batch = `${'{"msg":"x"}\n'.repeat(400)}`
    destination.write(batch)
    t.equal(readFileSync(file, 'utf8'), batch, 'the whole batch is in the file, with nothing left pending')
  },
)

t.test('edge/parser-errors.ts: Node keeps the response in progress on its socket', async (t) => {
  const seen: { before?: unknown; during?: unknown; started?: unknown } = {}
  const server = createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { _httpMessage?: ServerResponse }
    seen.before = socket._httpMessage === res
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.flushHeaders()
    seen.during = socket._httpMessage === res
    seen.started = socket._httpMessage?.headersSent
    res.end('ok')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => server.close())
  await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)).text()
  t.same(
    seen,
    { before: true, during: true, started: true },
    'the field the raw answers read is the response of the request in progress, and says when its head left',
  )
})

t.test(
  "observability/request-latency.ts: prom-client's registry renders a registered object by its get and getForPromString, as it renders its own Histogram",
  async (t) => {
    const theirs = new Registry()
    const histogram = new Histogram({
      name: 'latency_seconds',
      help: 'Time to answer',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [theirs],
    })
    const ours = new Registry()
    const latency = new RequestLatency({
      name: 'latency_seconds',
      help: 'Time to answer',
      buckets: LATENCY_BUCKETS,
    })
    ours.registerMetric(latency as unknown as Metric)
    const observations: Array<[string, string, number, number]> = [
      ['GET', '/api/v1/tokens', 304, 0.0004],
      ['POST', '/api/v1/orders/create', 201, 0.25],
      ['GET', '/api/v1/tokens', 304, 0.005],
      ['GET', '/api/v1/orders/:uuid', 200, 31],
      ['GET', '/api/v1/tokens', 200, 0.0125],
      ['GET', 'un"matched\\', 404, 2.5],
    ]
    const same = async (when: string) => {
      t.equal(await ours.metrics(), await theirs.metrics(), `the same text ${when}`)
      const json = async (registry: Registry) =>
        (await registry.getMetricsAsJSON()).map((m) => ({
          ...m,
          values: m.values.map((v) => ({ ...v, exemplar: undefined, sharedLabels: undefined })),
        }))
      t.same(await json(ours), await json(theirs), `the same JSON ${when}`)
    }
    for (const [method, route, status, seconds] of observations) {
      histogram.observe({ method, route, status: String(status) }, seconds)
      latency.observe(method, route, status, seconds)
    }
    await same('after six observations')
    t.match(
      await ours.metrics(),
      /latency_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/tokens",status="304"\} 2/,
    )
    ours.resetMetrics()
    theirs.resetMetrics()
    await same('after a reset')
  },
)

t.test(
  "every read of a library's private field in src/ has its test here, named after the file",
  async (t) => {
    const here = readFileSync(import.meta.filename, 'utf8')
    const root = join(import.meta.dirname, '../..')
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((name) => {
        const path = join(dir, name)
        return statSync(path).isDirectory() ? walk(path) : name.endsWith('.ts') ? [path] : []
      })
    })(join(root, 'src'))
    const reads = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\)\.(_[a-zA-Z]+)\b/g)].map((m) => ({
        file: relative(join(root, 'src'), file),
        field: m[1]!,
      })),
    )
    t.ok(reads.length >= 2, `${reads.length} private reads found`)
    for (const { file, field } of reads) {
      t.ok(
        here.includes(`t.test('${file}:`) && here.includes(field),
        `${file} reads ${field}: a test here is named after the file and reads the field`,
      )
    }
  },
)

t.test(
  "edge/request-line.ts: pino, and Fastify's logger made from it, write the level, the time, the base, the fields in their order, then msg",
  async (t) => {
    const lines: string[] = []
    const { logger, requestLine } = createLogger('info', { write: (line: string) => lines.push(line) })
    const app = Fastify({ loggerInstance: logger })
    t.teardown(() => app.close())
    const samples: Array<Record<string, unknown>> = [
      {
        requestId: 'req-1',
        method: 'GET',
        client: '127.0.0.1',
        url: '/api/v1/tokens',
        route: '/api/v1/tokens',
        status: 304,
        ms: 0.4,
        upstreamMs: 0,
        code: undefined,
        traceId: 'ab12',
      },
      {
        requestId: 'a "quoted" \\ id',
        method: 'POST',
        client: '::1',
        url: '/x?q=\u0001\u00e9\u007f',
        route: null,
        status: 429,
        ms: 12.5,
        upstreamMs: Number.NaN,
        code: 'RATE_LIMITED',
        traceId: undefined,
      },
      {
        requestId: 'x'.repeat(120),
        method: 'GET',
        url: '/é'.repeat(60),
        status: 500,
        ms: Infinity,
        upstreamMs: -0.1,
      },
    ]
    for (const fields of samples) {
      logger.info(fields, 'request completed')
      app.log.info(fields, 'request completed')
      requestLine.write(fields, 'request completed')
    }
    const frozen = lines.map((line) => line.replace(/"time":\d+/, '"time":0'))
    for (let i = 0; i < samples.length; i++) {
      t.equal(frozen[3 * i + 1], frozen[3 * i], `sample ${i + 1}: Fastify's logger writes pino's bytes`)
      t.equal(frozen[3 * i + 2], frozen[3 * i], `sample ${i + 1}: the request line writes them too`)
    }
  },
)

t.test(
  "edge/request-log.ts: pino writes a child's bindings just before the logged object's fields",
  async (t) => {
    const lines: string[] = []
    const { logger } = createLogger('info', { write: (line: string) => lines.push(line) })
    const fields = { method: 'GET', url: '/api/v1/tokens', status: 304, ms: 0.4, traceId: undefined }
    logger.child({ requestId: 'req-1' }).info(fields, 'request completed')
    logger.info({ requestId: 'req-1', ...fields }, 'request completed')
    const [child, parent] = lines.map((line) => line.replace(/"time":\d+/, '"time":0'))
    t.ok(child?.includes('"requestId":"req-1","method":"GET"'), String(child))
    t.equal(parent, child, 'the same bytes through the parent with the bindings first')
  },
)
