import t from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'

t.test(
  'an idle gateway stays ready between catalog reloads, and is not ready once the upstream is silent',
  async (t) => {
    let now = Date.now()
    const gw = await startGateway(t, {
      deps: { clock: { now: () => now } },
      env: { CATALOG_TTL_MS: '300000' },
    })
    t.equal((await gw.app.inject({ url: '/api/v1/tokens' })).statusCode, 200)
    const ready = await gw.app.inject({ url: '/readyz' })
    t.equal(ready.statusCode, 200)
    t.same(ready.json(), { status: 'ready' })

    now += 4 * 60_000
    t.equal((await gw.app.inject({ url: '/readyz' })).statusCode, 200, 'four idle minutes later: still ready')

    now += 10 * 60_000
    const silent = await gw.app.inject({ url: '/readyz' })
    const problem = assertProblem(t, silent, 'SERVICE_UNAVAILABLE')
    t.match(problem.checks, { upstream: /no upstream answer/ })
    t.equal(silent.headers['cache-control'], 'no-store')

    const health = await gw.app.inject({ url: '/healthz' })
    t.equal(health.statusCode, 200, 'still alive')
    t.same(health.json(), { status: 'ok' })
  },
)
