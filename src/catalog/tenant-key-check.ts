// The tenant key checked at start-up, with a call that needs it: swap limits for a pair the catalog
// names (so it lives above both the upstream client and the catalog). The verdict reaches the
// upstream's TenantKeyWatch through the client, as for every call carrying the key.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { swapLimitsSchema } from '../upstream/schemas.js'

/** How long start-up waits for the check's answer before serving with the check still under way. */
const START_WAIT_MS = 2_000

/**
 * Asks the upstream once at start-up, with a pricing call that needs the key (swap limits for a pair
 * from the catalog), so a refused key keeps the instance unready before any user finds out.
 */
export const tenantKeyCheck = fp(
  async (app: FastifyInstance) => {
    const watch = app.tenantKey
    const check = async () => {
      watch.checking()
      try {
        const pair = await app.catalog.tradablePair()
        if (!pair) return
        const ctx = app.upstreamContextFor('tenant-key-check')
        // The verdict reaches the watch through the client, as for every call carrying the key.
        await app.upstream.call(ctx, {
          operation: 'swapLimits',
          path: '/v1/tokens/swap-limits',
          query: new URLSearchParams({
            depositTokenId: String(pair.depositTokenId),
            settleTokenId: String(pair.settleTokenId),
          }).toString(),
          tenantKey: true,
          schema: swapLimitsSchema,
        })
      } catch {
        // Refused (already told to the watch) or unanswered (a shared outage: no verdict).
      } finally {
        watch.undecided()
      }
    }
    app.addHook('onReady', async () => {
      // On the process's timers: the start is bounded in real time, whatever a test does with the clock.
      let waited: NodeJS.Timeout | undefined
      await Promise.race([check(), new Promise((resolve) => (waited = setTimeout(resolve, START_WAIT_MS)))])
      clearTimeout(waited)
    })
  },
  {
    name: 'tenant-key-check',
    dependencies: ['upstream', 'catalog'],
    decorators: { fastify: ['tenantKey', 'catalog', 'upstream', 'upstreamContextFor'] },
  },
)
