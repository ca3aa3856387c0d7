// Starts one benchmark target in this process and prints {"url": ...} as its first stdout line:
//   sandbox            the upstream simulator
//   proxy <upstream>   a bare @fastify/http-proxy that only injects the tenant key (the baseline)
//   gateway <upstream> the gateway with every feature on, logging at info (to /dev/null), exporting
//                      spans when this process's environment names an OTLP endpoint (OTEL_*)
//   otlp-sink          an OTLP/HTTP receiver that accepts spans and drops them
import http from 'node:http'
import proxy from '@fastify/http-proxy'
import Fastify from 'fastify'
import { buildApp } from '../../src/app.js'
import { buildSandbox } from '../../src/sandbox/app.js'
import { BENCH_TENANT_KEY, benchConfig } from './setup.js'

const [mode, upstream] = process.argv.slice(2)
let url: string
if (mode === 'sandbox') {
  const { app } = buildSandbox({ tenantKey: BENCH_TENANT_KEY })
  url = await app.listen({ port: 0, host: '127.0.0.1' })
} else if (mode === 'proxy' && upstream) {
  const app = Fastify()
  await app.register(proxy, {
    upstream,
    prefix: '/api',
    rewritePrefix: '',
    replyOptions: {
      rewriteRequestHeaders: (_req, headers) => ({ ...headers, 'x-tenant-api-key': BENCH_TENANT_KEY }),
    },
  })
  url = await app.listen({ port: 0, host: '127.0.0.1' })
} else if (mode === 'gateway' && upstream) {
  const otel = Object.entries(process.env).filter(([name]) => name.startsWith('OTEL_'))
  const config = benchConfig(upstream, Object.fromEntries(otel) as Record<string, string>)
  const app = await buildApp(config, { logTo: '/dev/null' })
  url = await app.listen({ port: 0, host: '127.0.0.1' })
} else if (mode === 'otlp-sink') {
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  url = `http://127.0.0.1:${address.port}`
} else {
  throw new Error('usage: servers.ts sandbox | proxy <upstream> | gateway <upstream> | otlp-sink')
}
process.stdout.write(`${JSON.stringify({ url, pid: process.pid })}\n`)
// A clean exit on SIGINT lets `--cpu-prof` write its profile.
process.once('SIGINT', () => process.exit(0))
