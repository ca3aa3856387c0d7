// The tenant key's quota on one instance, without Redis: UPSTREAM_MAX_RPS counts every upstream call in
// a clock second (catalog loads included) and refuses the rest at once, and an upstream 429 pauses
// every call until its Retry-After (60 s when it names none). The shared versions are in fleet.test.ts.
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'
import { fakeClock } from '../helpers/clock.js'
import { metricValue, quoteUrl } from '../helpers/quota.js'

async function gateway(t: Parameters<typeof startGateway>[0], env: Record<string, string> = {}) {
  const clock = fakeClock()
  const gw = await startGateway(t, { env, deps: { clock } })
  const quote = (amount: number) => gw.app.inject({ url: quoteUrl(gw.sandbox.control.tokens(), amount) })
  const quotes = () => gw.sandbox.control.requestsTo('GET /v1/tokens/quote').length
  const metric = (name: string) => metricValue(gw.app, name)
  return { ...gw, clock, quote, quotes, metric }
}

t.test(
  'UPSTREAM_MAX_RPS counts the catalog load and refuses calls over it with 503 and Retry-After',
  async (t) => {
    const gw = await gateway(t, { UPSTREAM_MAX_RPS: '1' })
    const refused = await gw.quote(1)
    const problem = assertProblem(t, refused, 'UPSTREAM_UNAVAILABLE')
    t.equal(refused.headers['retry-after'], '1')
    t.equal(problem.retryAfter, 1)
    t.equal(gw.quotes(), 0, 'the start-up catalog load spent this second: no quote reached the upstream')
    const tokens = await gw.app.inject({ url: '/api/v1/tokens?symbol=USDT' })
    t.equal(tokens.statusCode, 200, 'the catalog is still served from memory')

    gw.clock.advance(1_000)
    t.equal((await gw.quote(2)).statusCode, 200, 'a new second, a new budget')
    assertProblem(t, await gw.quote(3), 'UPSTREAM_UNAVAILABLE')
    t.equal(gw.quotes(), 1)
    t.equal(await gw.metric('gateway_upstream_budget_refused_total'), 2)
  },
)

t.test('without UPSTREAM_MAX_RPS nothing is counted', async (t) => {
  const gw = await gateway(t)
  for (let i = 1; i <= 5; i++) t.equal((await gw.quote(i)).statusCode, 200)
  t.equal(await gw.metric('gateway_upstream_budget_refused_total'), 0)
})

t.test('an upstream 429 without Retry-After pauses every upstream call for 60 s', async (t) => {
  const gw = await gateway(t)
  gw.sandbox.control.fault('GET /v1/tokens/quote', { kind: 'status', status: 429, body: '' })
  const limited = await gw.quote(1)
  const first = assertProblem(t, limited, 'UPSTREAM_UNAVAILABLE')
  t.equal(limited.headers['retry-after'], '60', 'the unstated Retry-After is 60 s')
  t.equal(first.retryAfter, 60)
  t.equal(await gw.metric('gateway_upstream_cooldown_seconds'), 60)

  gw.clock.advance(45_000)
  const paused = await gw.quote(2)
  assertProblem(t, paused, 'UPSTREAM_UNAVAILABLE')
  t.equal(paused.headers['retry-after'], '15', 'the remaining wait')
  t.equal(gw.quotes(), 1, 'no call went out meanwhile')
  t.equal(await gw.metric('gateway_upstream_cooldown_refused_total'), 1)
  t.equal(await gw.metric('gateway_upstream_cooldowns_total'), 1)

  gw.clock.advance(15_000)
  t.equal((await gw.quote(3)).statusCode, 200, 'calls resume when it has passed')
  t.equal(await gw.metric('gateway_upstream_cooldown_seconds'), 0)
})
