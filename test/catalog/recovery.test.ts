// After an upstream outage long enough to open the breaker, the catalog is fresh again within a few
// seconds of the upstream's return: its reload backoff follows the breaker instead of counting the
// breaker's refusals as failures (they once kept it STALE for up to a minute). Time is the injected
// clock; the upstream really goes away and comes back on the same port.
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { buildSandbox } from '../../src/sandbox/app.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'

const TOKENS = '/api/v1/tokens'
const TTL_MS = 60_000
const BREAKER_OPEN_MS = 5_000

t.test('the catalog is fresh again within seconds of the upstream coming back after an outage', async (t) => {
  const clock = fakeClock()
  const { app, sandbox } = await startGateway(t, {
    env: { CATALOG_TTL_MS: String(TTL_MS) },
    deps: {
      clock,
      upstreamTuning: { retries: 0, breakerThreshold: 1, breakerOpenMs: BREAKER_OPEN_MS },
    },
  })
  // The start-up load may still be on its way on a busy machine: the first read waits for it.
  await app.inject(TOKENS)
  t.equal((await app.inject(TOKENS)).headers['x-cache-status'], 'HIT')
  const { port } = sandbox.app.server.address() as AddressInfo
  await sandbox.app.close()
  /** A read, then every load under way (the read's, or the reload timer's) landed before the clock moves on. */
  const read = async () => {
    const status = (await app.inject(TOKENS)).headers['x-cache-status']
    await eventually('the loads under way', () => app.catalog.stats().loading === 0)
    return status
  }

  // Two minutes of outage, read every 5 s of clock: loads fail, then the breaker refuses or probes.
  clock.advance(TTL_MS + 1)
  for (let elapsed = 0; elapsed < 120_000; elapsed += BREAKER_OPEN_MS) {
    t.equal(await read(), 'STALE')
    clock.advance(BREAKER_OPEN_MS)
  }
  t.ok(app.catalog.stats().refreshFailures >= 10, 'the catalog kept trying through the outage')

  const { app: upstream } = buildSandbox({ tenantKey: TEST_TENANT_KEY })
  t.teardown(() => upstream.close())
  await upstream.listen({ host: '127.0.0.1', port })

  let seconds = 0
  let status: unknown
  do {
    clock.advance(1_000)
    seconds += 1
    await read()
    status = (await app.inject(TOKENS)).headers['x-cache-status']
  } while (status !== 'HIT' && seconds < 70)
  t.equal(status, 'HIT', 'fresh again')
  t.ok(seconds <= BREAKER_OPEN_MS / 1000 + 1, `within ${seconds} s of the upstream's return`)
  t.equal(app.upstream.breaker.current, 'closed')
})
