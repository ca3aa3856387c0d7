// For tests of the tenant key's quota: a quote request, and one unlabelled metric's value. (Their clock
// is the fake one, standing still unless moved, so every call of a test falls in one clock second.)
import type { FastifyInstance } from 'fastify'
import type { Token } from '../../src/upstream/schemas.js'
import { picks } from './picks.js'

/** A quote between two tradable tokens; the amount tells calls apart. */
export function quoteUrl(tokens: Token[], amount: number): string {
  const p = picks(tokens)
  return `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=${amount}&amountIsDeposit=true`
}

/** The value of a metric without labels, NaN when absent. */
export async function metricValue(app: FastifyInstance, name: string): Promise<number> {
  const line = (await app.metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${name} `))
  return Number(line?.split(' ')[1])
}
