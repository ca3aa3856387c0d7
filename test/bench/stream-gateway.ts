// The gateway under test in the stream benchmark, in its own process: every feature on, logging at
// info to /dev/null, stream limits raised to hold the benchmark's 10,000 streams from one address.
import { buildApp } from '../../src/app.js'
import { benchConfig } from './setup.js'
import { serve, settledMemory } from './stream-ipc.js'

const upstream = process.argv[2]
if (!upstream) throw new Error('usage: stream-gateway.ts <upstream url>')
const config = benchConfig(upstream, { SSE_MAX_PER_IP: '20000', SSE_MAX_TOTAL: '20000' })
const app = await buildApp(config, { logTo: '/dev/null' })
const url = await app.listen({ port: 0, host: '127.0.0.1' })

serve(
  async (message) => {
    if (message.type === 'measure')
      return { type: 'memory', ...settledMemory(), stats: app.streamHub.stats() }
    return undefined
  },
  { type: 'ready', url },
)
