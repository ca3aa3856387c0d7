// The gateway under test in the stream benchmark, in its own process: every feature on, logging at
// info to /dev/null, stream limits raised to hold the benchmark's 10,000 streams from one address.
import pino from 'pino'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { BENCH_TENANT_KEY } from './bench-key.js'
import { serve, settledMemory } from './stream-ipc.js'

const upstream = process.argv[2]
if (!upstream) throw new Error('usage: stream-gateway.ts <upstream url>')
const unlimited = { max: 1_000_000_000, timeWindow: '1 minute' }
const config = loadConfig({
  NODE_ENV: 'production',
  UPSTREAM_URL: upstream,
  TENANT_API_KEY: BENCH_TENANT_KEY,
  SESSION_SECRET: 'bench-session-secret-0123456789-abcdefgh',
  METRICS_PORT: '0',
  LOG_LEVEL: 'info',
  SSE_MAX_PER_IP: '20000',
  SSE_MAX_TOTAL: '20000',
  RATE_LIMITS: JSON.stringify(Object.fromEntries(['stream', 'create', 'orders'].map((g) => [g, unlimited]))),
})
const app = await buildApp(config, { logStream: pino.destination('/dev/null') })
const url = await app.listen({ port: 0, host: '127.0.0.1' })

serve(
  async (message) => {
    if (message.type === 'measure')
      return { type: 'memory', ...settledMemory(), stats: app.streamHub.stats() }
    return undefined
  },
  { type: 'ready', url },
)
