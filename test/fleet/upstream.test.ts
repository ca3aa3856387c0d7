// Readiness as the balancer reads it. An outage every instance shares (the upstream refusing
// connections) must not take the instances out of the pool: clients keep the catalog from memory and
// get problem documents, never the balancer's own error page. A tenant key the upstream refuses is
// the instance's own fault: that instance stays out, the others serve.
import t from 'tap'
import { fetch } from 'undici'
import { eventually } from '../helpers/eventually.js'
import { picks } from '../helpers/picks.js'
import { CHECK, fleetSkip, type Fleet, type Instance, startFleet } from './fleet.js'

/** The window for "no upstream answer recently", shortened as an operator can (two 1 s catalog reloads). */
const UPSTREAM_WINDOW_MS = 3000
const RATE_LIMITS = JSON.stringify({ pricing: { max: 100_000, timeWindow: '1 minute' } })

function quotePath(fleet: Fleet) {
  const p = picks(fleet.sandbox.control.tokens())
  return `/api/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=250&amountIsDeposit=true`
}

async function get(url: string) {
  const res = await fetch(url)
  const text = await res.text()
  return { status: res.status, type: res.headers.get('content-type') ?? '', text }
}

async function readiness(fleet: Fleet) {
  return Promise.all(
    fleet.instances.map(async (i) => {
      const res = await get(`${i.url}/readyz`)
      return { name: i.name, status: res.status, body: JSON.parse(res.text) as Record<string, unknown> }
    }),
  )
}

t.test(
  'the upstream refusing connections leaves every instance in the pool',
  { skip: fleetSkip },
  async (t) => {
    // A short catalog TTL: the instances try (and fail) to reload it during the outage.
    const fleet = await startFleet(t, {
      env: {
        CATALOG_TTL_MS: '1000',
        READINESS_UPSTREAM_WINDOW_MS: String(UPSTREAM_WINDOW_MS),
        RATE_LIMITS,
      },
    })
    const QUOTE = quotePath(fleet)
    const quote = (await get(`${fleet.url}${QUOTE}`)).status
    t.equal(quote, 200, 'quotes are served before the outage')

    await fleet.relay.refuse()
    const outage = Date.now()
    // Each instance's window runs from its last upstream answer, before the outage: a health check it
    // answers from outage + window on is past it. An instance that used to fail readiness then was out
    // after CHECK.fall such checks, so the outage is sampled until each has answered more than that.
    const checks = (i: Instance) =>
      i.child.lines.filter((l) => l.msg === 'request completed' && l.url === '/readyz')
    const pastWindow = (i: Instance) => checks(i).filter((l) => Number(l.time) >= outage + UPSTREAM_WINDOW_MS)
    const allChecks = () => fleet.instances.reduce((n, i) => n + checks(i).length, 0)
    const seen: Array<{ path: string; status: number; type: string }> = []
    const notUp = new Set<string>()
    for (;;) {
      for (const [name, state] of Object.entries(await fleet.balancer.states()))
        if (state !== 'UP') notUp.add(name)
      if (fleet.instances.every((i) => pastWindow(i).length > CHECK.fall)) break
      for (const path of ['/api/v1/tokens', QUOTE]) {
        const res = await get(`${fleet.url}${path}`)
        seen.push({ path, status: res.status, type: res.type })
      }
      // A round of samples per health check the balancer makes, whichever instance it checks.
      const before = allChecks()
      await eventually('the next health check', () => allChecks() > before)
    }
    t.same(
      fleet.instances.flatMap((i) => pastWindow(i).filter((l) => l.status !== 200)),
      [],
      'every health check past the window is answered 200',
    )
    t.same([...notUp], [], 'haproxy never took an instance out')
    const catalog = seen.filter((s) => s.path === '/api/v1/tokens')
    t.same(
      catalog.filter((s) => s.status !== 200),
      [],
      `the catalog is served from memory throughout (${catalog.length} requests)`,
    )
    const quotes = seen.filter((s) => s.path === QUOTE)
    t.same(
      quotes.filter((s) => s.status !== 503 || !s.type.startsWith('application/problem+json')),
      [],
      `every quote is a 503 problem document (${quotes.length} requests)`,
    )
    const ready = await readiness(fleet)
    t.same(
      ready.map((r) => [r.status, Object.keys(r.body.degraded ?? {}).includes('upstream')]),
      [
        [200, true],
        [200, true],
        [200, true],
      ],
      'every instance is ready, with the upstream named as degraded',
    )

    await fleet.relay.accept()
    await eventually('quotes again', async () => (await get(`${fleet.url}${QUOTE}`)).status === 200, 30_000)
    t.pass('the fleet serves quotes again once the upstream is back')
  },
)

t.test(
  'a tenant key the upstream refuses keeps that instance out, the others serve',
  { skip: fleetSkip },
  async (t) => {
    const fleet = await startFleet(t, {
      waitUp: false,
      instanceEnv: (i): Record<string, string> =>
        i === 2 ? { TENANT_API_KEY: 'a-key-the-upstream-refuses' } : {},
    })
    const QUOTE = quotePath(fleet)
    await Promise.all([fleet.balancer.until('g1', 'UP'), fleet.balancer.until('g2', 'UP')])
    const bad = await get(`${fleet.instances[2]!.url}/readyz`)
    t.equal(bad.status, 503, 'the instance with the refused key is not ready')
    t.match(bad.type, /^application\/problem\+json/, 'and says so in a problem document')
    t.match(bad.text, /TENANT_API_KEY|tenant/i, 'naming the tenant key')
    await fleet.balancer.until('g3', 'DOWN')
    t.pass('haproxy keeps it out of the pool')

    const quotes = []
    for (let i = 0; i < 9; i++) quotes.push((await get(`${fleet.url}${QUOTE}`)).status)
    t.same(quotes, Array(9).fill(200), 'every quote through the balancer is served by the other instances')
    t.equal((await fleet.balancer.states()).g3, 'DOWN', 'and it stays out')
  },
)
