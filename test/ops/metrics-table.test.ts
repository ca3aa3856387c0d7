// docs/operations.md lists every metric an operator can scrape. The table is written by hand, so this
// holds it to the registry: a metric added without its row, or a row left after its metric went,
// fails here. The process's default metrics (process_*, nodejs_*) are prom-client's own.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'

const DOCS = join(import.meta.dirname, '../../docs/operations.md')

/** Metric names in the table's first column; `a_total`, `_b_total` in one cell share a's prefix. */
export function documentedMetrics(markdown: string): Set<string> {
  const section = markdown.slice(markdown.indexOf('## Metrics'))
  const names = new Set<string>()
  for (const [, cell] of section.matchAll(/^\| ([^|]*`gateway_[^|]*) \|/gm)) {
    const listed = [...(cell ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? '')
    const first = listed[0] ?? ''
    for (const name of listed) {
      if (name.startsWith('gateway_')) names.add(name)
      // `_cache_misses_total` beside `gateway_catalog_cache_hits_total`: the first's family prefix.
      else names.add(`${first.split('_').slice(0, 2).join('_')}${name}`)
    }
  }
  return names
}

t.test('the table reads shorthand cells as operators do', async (t) => {
  const table = '## Metrics\n| `gateway_catalog_cache_hits_total`, `_cache_misses_total` | counter | | x |\n'
  t.same(
    [...documentedMetrics(table)],
    ['gateway_catalog_cache_hits_total', 'gateway_catalog_cache_misses_total'],
  )
})

t.test("docs/operations.md's metric table is the registry's list", async (t) => {
  // With Redis configured, the Redis gauge registers too; without it, it is the one row not scraped.
  // Webhooks are configured so that theirs register.
  const redis = process.env.REDIS_URL
  const webhooks = {
    WEBHOOK_URLS: 'http://127.0.0.1:9/hooks',
    WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
  }
  const { app } = await startGateway(t, { env: { ...webhooks, ...(redis ? { REDIS_URL: redis } : {}) } })
  const registered = (await app.metrics.registry.getMetricsAsJSON())
    .map((m) => m.name)
    .filter((name) => name.startsWith('gateway_'))
  t.ok(registered.length > 20, `${registered.length} metrics registered`)
  const documented = documentedMetrics(readFileSync(DOCS, 'utf8'))
  const optional = redis ? [] : ['gateway_redis_up']
  t.same(
    registered.filter((name) => !documented.has(name)),
    [],
    'every registered metric has its row',
  )
  t.same(
    [...documented].filter((name) => !registered.includes(name) && !optional.includes(name)),
    [],
    'every row names a registered metric',
  )
})
