// The gateway under test in the stream, live quote and wallet benchmarks, in its own process: every feature
// on, logging at info to /dev/null, stream limits raised to hold 10,000 streams from one address;
// further settings as JSON in the second argument.
import { buildApp } from '../../src/app.js'
import { benchConfig } from './setup.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { serve, settledMemory, wallNow } from './stream-ipc.js'

const upstream = process.argv[2]
if (!upstream) throw new Error('usage: stream-gateway.ts <upstream url> [settings as JSON]')
const more = JSON.parse(process.argv[3] ?? '{}') as Record<string, string>
const config = benchConfig(upstream, { SSE_MAX_PER_IP: '20000', SSE_MAX_TOTAL: '20000', ...more })
const app = await buildApp(config, { logTo: '/dev/null' })
const url = await app.listen({ port: 0, host: '127.0.0.1' })

serve(
  async (message) => {
    if (message.type === 'measure')
      return {
        type: 'memory',
        ...settledMemory(),
        stats: app.statusHub.stats(),
        quotes: app.quoteHub.stats(),
      }
    // The wallet benchmark: order events published here as the watch publishes them.
    if (message.type === 'publish') {
      const t0 = wallNow()
      await Promise.all((message.events as OrderEvent[]).map((event) => app.orderEvents.publish(event)))
      return { type: 'published', t0 }
    }
    return undefined
  },
  { type: 'ready', url },
)
