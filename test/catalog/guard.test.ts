import { eventually } from '../helpers/eventually.js'
import t, { type Test } from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'
import { fakeClock } from '../helpers/clock.js'

const QUOTE_CALLS = 'GET /v1/tokens/quote'
const CATALOG_CALLS = 'GET /v1/tokens'
const FORCED_INTERVAL_MS = 30_000

const quote = (deposit: number, settle: number) =>
  `/api/v1/tokens/quote?depositTokenId=${deposit}&settleTokenId=${settle}&amount=100&amountIsDeposit=true`

async function setup(t: Test) {
  const clock = fakeClock()
  const gw = await startGateway(t, {
    deps: { clock, catalogTuning: { forcedRefreshIntervalMs: FORCED_INTERVAL_MS } },
  })
  const p = picks(gw.sandbox.control.tokens())
  gw.sandbox.control.clearRequests()
  return { ...gw, clock, p }
}

t.test(
  'an unknown token id is UNKNOWN_TOKEN, named by side, and never reaches the pricing upstream',
  async (t) => {
    const { app, sandbox, p } = await setup(t)
    const deposit = assertProblem(t, await app.inject(quote(p.unknownId, p.eth.id)), 'UNKNOWN_TOKEN')
    t.match(deposit, { side: 'deposit', tokenId: p.unknownId })
    const settle = assertProblem(t, await app.inject(quote(p.usdtEth.id, p.unknownId)), 'UNKNOWN_TOKEN')
    t.match(settle, { side: 'settle', tokenId: p.unknownId })
    const both = assertProblem(t, await app.inject(quote(p.unknownId, p.unknownId + 1)), 'UNKNOWN_TOKEN')
    t.match(both, { side: 'deposit', tokenId: p.unknownId }, 'the deposit side is checked first')
    const limits = await app.inject(
      `/api/v1/tokens/swap-limits?depositTokenId=${p.unknownId}&settleTokenId=${p.eth.id}`,
    )
    assertProblem(t, limits, 'UNKNOWN_TOKEN')
    const create = await app.inject({
      method: 'POST',
      url: '/api/v1/orders/create',
      payload: { ...orderBody(p), settleTokenId: p.unknownId },
    })
    t.match(assertProblem(t, create, 'UNKNOWN_TOKEN'), { side: 'settle', tokenId: p.unknownId })
    t.equal(sandbox.control.requestsTo(QUOTE_CALLS).length, 0, 'no quote call upstream')
    t.equal(sandbox.control.requestsTo('GET /v1/tokens/swap-limits').length, 0)
    t.equal(sandbox.control.requestsTo('POST /v1/orders/create').length, 0, 'no create call upstream')
    t.equal(sandbox.control.requestsTo(CATALOG_CALLS).length, 1, 'one forced catalog refresh for all of them')
    t.equal(app.catalog.stats().forcedRefreshes, 1)
  },
)

t.test('a token listed upstream after start-up is found by one forced refresh, then priced', async (t) => {
  const { app, sandbox, p } = await setup(t)
  const added = sandbox.control.addToken({
    name: 'Fresh Listing',
    symbol: 'FRESH',
    blockchainId: p.eth.blockchainId,
  })
  const res = await app.inject(quote(added.id, p.eth.id))
  t.equal(res.statusCode, 200, 'not refused')
  t.equal(sandbox.control.requestsTo(CATALOG_CALLS).length, 1, 'the catalog was reloaded once')
  t.equal(sandbox.control.requestsTo(QUOTE_CALLS).length, 1, 'then the quote went upstream')
  const listed = await app.inject(`/api/v1/tokens/${added.id}`)
  t.equal(listed.statusCode, 200, 'the reloaded catalog serves the new token')
  t.equal(listed.json().symbol, 'FRESH')
})

t.test('forced refreshes are rate-limited: at most one per interval', async (t) => {
  const { app, sandbox, clock, p } = await setup(t)
  assertProblem(t, await app.inject(quote(p.unknownId, p.eth.id)), 'UNKNOWN_TOKEN')
  t.equal(sandbox.control.requestsTo(CATALOG_CALLS).length, 1)

  const added = sandbox.control.addToken({
    name: 'Late Listing',
    symbol: 'LATE',
    blockchainId: p.eth.blockchainId,
  })
  clock.advance(FORCED_INTERVAL_MS - 1)
  for (let i = 0; i < 5; i++) assertProblem(t, await app.inject(quote(added.id, p.eth.id)), 'UNKNOWN_TOKEN')
  assertProblem(t, await app.inject(`/api/v1/tokens/${added.id}`), 'TOKEN_NOT_FOUND')
  t.equal(sandbox.control.requestsTo(CATALOG_CALLS).length, 1, 'no reload within the interval')

  clock.advance(1)
  t.equal((await app.inject(quote(added.id, p.eth.id))).statusCode, 200, 'the next interval allows one more')
  t.equal(sandbox.control.requestsTo(CATALOG_CALLS).length, 2)
  t.equal(sandbox.control.requestsTo(QUOTE_CALLS).length, 1)
})

t.test(
  'an inactive token, or a deposit on a chain with deposits off, is PAIR_UNAVAILABLE before the upstream',
  async (t) => {
    const { app, sandbox, p } = await setup(t)
    for (const [deposit, settle, why] of [
      [p.inactive.id, p.eth.id, 'inactive deposit token'],
      [p.usdtEth.id, p.inactive.id, 'inactive settle token'],
      [p.depositsOff.id, p.eth.id, 'deposit chain with deposits disabled'],
    ] as const) {
      const body = assertProblem(t, await app.inject(quote(deposit, settle)), 'PAIR_UNAVAILABLE')
      t.match(body, { depositTokenId: deposit, settleTokenId: settle }, why)
    }
    const create = await app.inject({
      method: 'POST',
      url: '/api/v1/orders/create',
      payload: { ...orderBody(p), depositTokenId: p.inactive.id },
    })
    assertProblem(t, create, 'PAIR_UNAVAILABLE')
    t.equal(sandbox.control.requestsTo(QUOTE_CALLS).length, 0)
    t.equal(sandbox.control.requestsTo('POST /v1/orders/create').length, 0)
    t.equal(sandbox.control.requestsTo(CATALOG_CALLS).length, 0, 'known tokens need no refresh')

    const settleOnClosedChain = await app.inject(quote(p.usdtEth.id, p.depositsOff.id))
    t.equal(settleOnClosedChain.statusCode, 200, 'receiving on a chain that takes no deposits is allowed')
  },
)

t.test(
  'the guard follows the catalog: a token deactivated upstream is refused after the next load',
  async (t) => {
    const { app, sandbox, clock, p } = await setup(t)
    t.equal((await app.inject(quote(p.usdtEth.id, p.eth.id))).statusCode, 200)
    sandbox.control.setTokenActive(p.eth.id, false)
    clock.advance(300_001)
    await app.inject('/api/v1/tokens')
    await eventually('the background load', () => app.catalog.stats().refreshes === 2)
    assertProblem(t, await app.inject(quote(p.usdtEth.id, p.eth.id)), 'PAIR_UNAVAILABLE')
  },
)
