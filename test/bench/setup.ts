// What every benchmark needs the same way: the sandbox's tenant key, a gateway configuration whose
// limits never refuse the load generator, and orders to read and stream.
import { type AppConfig, loadConfig } from '../../src/config.js'
import { RATE_LIMIT_GROUPS } from '../../src/edge/rate-limit-rules.js'

/** The tenant key the benchmark's sandbox accepts (a sandbox key, not a secret). */
export const BENCH_TENANT_KEY = 'bench-tenant-key'

/** A production configuration in front of `upstream`, with `env` on top. */
export function benchConfig(upstream: string, env: Record<string, string> = {}): AppConfig {
  const unlimited = { max: 1_000_000_000, timeWindow: '1 minute' }
  return loadConfig({
    NODE_ENV: 'production',
    PUBLIC_ORIGIN: 'https://bench.example',
    UPSTREAM_URL: upstream,
    TENANT_API_KEY: BENCH_TENANT_KEY,
    SESSION_SECRET: 'bench-session-secret-0123456789-abcdefgh',
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
    // Benchmarks measure the request path, not the limiter refusing the load generator.
    RATE_LIMITS: JSON.stringify(Object.fromEntries(RATE_LIMIT_GROUPS.map((g) => [g, unlimited]))),
    ...env,
  })
}

interface CatalogToken {
  id: number
  symbol: string
  active: boolean
  isBaseToken: boolean
  blockchain: { network: string }
}

/** The pair the benchmarks trade: USDT on Ethereum into ETH. */
export function benchPair(tokens: CatalogToken[]) {
  const usdt = tokens.find((t) => t.symbol === 'USDT' && t.blockchain.network === 'ETH' && t.active)
  const eth = tokens.find((t) => t.isBaseToken && t.blockchain.network === 'ETH' && t.active)
  if (!usdt || !eth) throw new Error('the sandbox catalog lacks USDT and ETH on ETH')
  return { usdt, eth }
}

/** Creates `count` orders through the gateway and returns their uuids. */
export async function createOrders(
  gatewayUrl: string,
  tokens: CatalogToken[],
  count: number,
): Promise<string[]> {
  const { usdt, eth } = benchPair(tokens)
  const uuids: string[] = []
  for (let n = 0; n < count; n++) {
    const res = await fetch(`${gatewayUrl}/api/v1/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        depositTokenId: usdt.id,
        settleTokenId: eth.id,
        receivingAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
        intendedAmount: 100 + n,
        intendedIsDeposit: true,
      }),
    })
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`)
    uuids.push(((await res.json()) as { uuid: string }).uuid)
  }
  return uuids
}
