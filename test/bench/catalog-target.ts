// A target of the catalog benchmark, started in its own process (IPC channel open); prints
// {"url": ...} as its first stdout line.
//   gateway <upstream>  the gateway with every feature on, logging at info (to /dev/null); answers
//                       an IPC "stats" message with app.catalog.stats()
//   bare <dir>          a bare node:http server sending the same bytes (read from <dir>) with the same
//                       negotiation and If-None-Match handling: the baseline
//   catalog-only <up>   Fastify with only what the catalog plugin needs (no security headers, origin
//                       policy, rate limits, metrics or log lines): how much of the gateway's time is
//                       the catalog's own
//   naive <dir>         node:http serialising the parsed catalog per request (identity only): for scale
//   bare-head <dir>     the bare server, also sending the headers the gateway adds (a new request id and
//                       a falling rate-limit count per request): what the gateway's longer head costs
//   fastify-head <dir>  Fastify (no hooks, no logger) with one route sending what bare-head sends: the
//                       floor under any Fastify gateway that sends the contract's headers
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { buildApp } from '../../src/app.js'
import { catalogPlugin } from '../../src/catalog/plugin.js'
import { systemClock } from '../../src/clock.js'
import { clientIp } from '../../src/edge/client-ip.js'
import { createLogger } from '../../src/edge/logger.js'
import { requestLogging } from '../../src/edge/logging.js'
import { problemHandler } from '../../src/edge/problem-handler.js'
import { declaredRoutes } from '../../src/edge/route-answers.js'
import { metricsPlugin } from '../../src/observability/metrics.js'
import { readinessPlugin } from '../../src/observability/readiness.js'
import { redisPlugin } from '../../src/redis/plugin.js'
import { tracingPlugin } from '../../src/tracing/plugin.js'
import { upstreamPlugin } from '../../src/upstream/plugin.js'
import { benchConfig } from './setup.js'

interface CatalogFiles {
  identity: Buffer
  br: Buffer
  gzip: Buffer
  etags: { identity: string; br: string; gzip: string }
  /** The headers the gateway sends that the bare server does not, as the gateway sent them. */
  head: Array<[string, string]>
}

function readCatalogFiles(dir: string): CatalogFiles {
  return {
    identity: readFileSync(join(dir, 'catalog.json')),
    br: readFileSync(join(dir, 'catalog.json.br')),
    gzip: readFileSync(join(dir, 'catalog.json.gz')),
    etags: JSON.parse(readFileSync(join(dir, 'etags.json'), 'utf8')),
    head: JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')),
  }
}

/** Sets the gateway's added headers through `set`: each request a new id and one fewer request left. */
function headSetter(files: CatalogFiles) {
  const fixed = files.head.filter(([name]) => name !== 'x-request-id' && name !== 'x-ratelimit-remaining')
  let left = 1_000_000_000
  return (set: (name: string, value: string) => void) => {
    set('x-request-id', randomUUID())
    for (const [name, value] of fixed) set(name, value)
    set('x-ratelimit-remaining', String(--left))
  }
}

function codingOf(req: IncomingMessage): 'br' | 'gzip' | 'identity' {
  const accepted = req.headers['accept-encoding'] ?? ''
  if (accepted.includes('br')) return 'br'
  if (accepted.includes('gzip')) return 'gzip'
  return 'identity'
}

function bare(files: CatalogFiles, withHead = false) {
  const setHead = withHead ? headSetter(files) : undefined
  return (req: IncomingMessage, res: ServerResponse) => {
    setHead?.((name, value) => res.setHeader(name, value))
    const coding = codingOf(req)
    const etag = files.etags[coding]
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.setHeader('vary', 'Accept-Encoding')
    res.setHeader('etag', etag)
    res.setHeader('cache-control', 'public, max-age=60, stale-while-revalidate=300')
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304
      res.end()
      return
    }
    if (coding !== 'identity') res.setHeader('content-encoding', coding)
    const body = files[coding]
    res.setHeader('content-length', body.length)
    res.end(body)
  }
}

function naive(files: CatalogFiles) {
  const tokens = JSON.parse(files.identity.toString('utf8')) as unknown
  return (_req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(tokens)
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.setHeader('content-length', Buffer.byteLength(body))
    res.end(body)
  }
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer({ keepAliveTimeout: 60_000 }, handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** bare-head's answers from Fastify's reply, in a route with no hooks and no logger. */
async function fastifyHead(files: CatalogFiles): Promise<string> {
  const app = Fastify()
  const setHead = headSetter(files)
  app.get('/', (request, reply) => {
    setHead((name, value) => reply.header(name, value))
    const coding = codingOf(request.raw)
    const etag = files.etags[coding]
    reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'Accept-Encoding')
    reply.header('etag', etag).header('cache-control', 'public, max-age=60, stale-while-revalidate=300')
    if (request.headers['if-none-match'] === etag) return reply.code(304).send()
    if (coding !== 'identity') reply.header('content-encoding', coding)
    return reply.send(files[coding])
  })
  return app.listen({ port: 0, host: '127.0.0.1' })
}

async function gateway(upstream: string): Promise<string> {
  const config = benchConfig(upstream)
  // The gateway's own log destination (edge/log-batches.ts), pointed at /dev/null.
  const app = await buildApp(config, { logTo: '/dev/null' })
  process.on('message', (message) => {
    if (message === 'stats') process.send?.({ stats: app.catalog.stats() })
  })
  return app.listen({ port: 0, host: '127.0.0.1' })
}

async function catalogOnly(upstream: string): Promise<string> {
  const { logger, requestLine } = createLogger('silent', undefined, '/dev/null')
  const app = Fastify({ loggerInstance: logger })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorate('clock', systemClock)
  app.decorate('random', Math.random)
  // What the catalog plugin declares it needs, and no more of the edge than that.
  await app.register(metricsPlugin)
  await app.register(readinessPlugin)
  // Trace context as every gateway has it (propagation only: no endpoint).
  await app.register(tracingPlugin, { config: undefined, upstreamHost: new URL(upstream).host })
  await app.register(redisPlugin, { url: undefined, commandTimeoutMs: 250 })
  await app.register(clientIp, { header: undefined })
  await app.register(requestLogging, { requestLine })
  await app.register(declaredRoutes)
  await app.register(problemHandler, { apiPrefix: '/api', publicOrigin: 'http://localhost:3000' })
  await app.register(upstreamPlugin, {
    url: upstream,
    tenantKey: 'bench-tenant-key',
    timeoutMs: 10_000,
    maxRps: undefined,
    readinessWindowMs: 600_000,
    userAgent: 'catalog-bench',
  })
  await app.register(catalogPlugin, { apiPrefix: '/api', ttlMs: 300_000, maxStaleMs: 86_400_000 })
  return app.listen({ port: 0, host: '127.0.0.1' })
}

const [mode, arg] = process.argv.slice(2)
let url: string
if (mode === 'gateway' && arg) url = await gateway(arg)
else if (mode === 'catalog-only' && arg) url = await catalogOnly(arg)
else if (mode === 'bare' && arg) url = await listen(bare(readCatalogFiles(arg)))
else if (mode === 'bare-head' && arg) url = await listen(bare(readCatalogFiles(arg), true))
else if (mode === 'fastify-head' && arg) url = await fastifyHead(readCatalogFiles(arg))
else if (mode === 'naive' && arg) url = await listen(naive(readCatalogFiles(arg)))
else
  throw new Error(
    'usage: catalog-target.ts gateway|catalog-only <upstream> | bare|bare-head|fastify-head|naive <dir>',
  )
process.stdout.write(`${JSON.stringify({ url, pid: process.pid })}\n`)
