import t from 'tap'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'

const QUOTE = '/v1/tokens/quote'

t.test('a quote comes back as the upstream wrote it, priced with the tenant key', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const p = picks(sandbox.control.tokens())
  const query = `depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=250&amountIsDeposit=true`
  const direct = await fetch(`${sandbox.url}${QUOTE}?${query}`, {
    headers: { 'x-tenant-api-key': TEST_TENANT_KEY },
  })
  const expected = await direct.json()
  sandbox.control.clearRequests()

  const res = await app.inject(`/api${QUOTE}?${query}`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  t.same(res.json(), expected, 'same body, undocumented fields included')
  t.equal(res.headers['cache-control'], 'no-store')
  const sent = sandbox.control.requestsTo('GET /v1/tokens/quote')
  t.equal(sent.length, 1)
  t.equal(sent[0]?.headers['x-tenant-api-key'], TEST_TENANT_KEY, 'tenant key injected')
  t.notMatch(res.body, TEST_TENANT_KEY)
  t.notOk(JSON.stringify(res.headers).includes(TEST_TENANT_KEY), 'no key in headers')
})

t.test('swap limits pass through untouched, extra parameters forwarded as given', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const p = picks(sandbox.control.tokens())
  const res = await app.inject(
    `/api/v1/tokens/swap-limits?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&x=1`,
  )
  t.equal(res.statusCode, 200)
  const sent = sandbox.control.requestsTo('GET /v1/tokens/swap-limits')
  t.equal(sent.length, 1)
  t.match(sent[0]?.url, /[?&]x=1(&|$)/)
  t.equal(sent[0]?.headers['x-tenant-api-key'], TEST_TENANT_KEY)
  const direct = await fetch(`${sandbox.url}${sent[0]?.url}`, {
    headers: { 'x-tenant-api-key': TEST_TENANT_KEY },
  })
  t.same(res.json(), await direct.json())
})

t.test(
  'amounts that are missing, non-numeric, zero or negative are INVALID_AMOUNT, not sent upstream',
  async (t) => {
    const { app, sandbox } = await startGateway(t)
    const p = picks(sandbox.control.tokens())
    const base = `depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amountIsDeposit=true`
    for (const amount of [
      '',
      '&amount=',
      '&amount=abc',
      '&amount=0',
      '&amount=-5',
      '&amount=Infinity',
      '&amount=1e999',
      '&amount=1&amount=2',
    ]) {
      const res = await app.inject(`/api${QUOTE}?${base}${amount}`)
      const body = assertProblem(t, res, 'INVALID_AMOUNT')
      const paths = (body.errors as Array<{ path: string }>).map((e) => e.path)
      t.same(paths, ['query.amount'], `one error, naming the field, for "${amount}"`)
    }
    t.equal(sandbox.control.requestsTo('GET /v1/tokens/quote').length, 0)
  },
)

t.test('malformed ids and flags are VALIDATION_FAILED with one error per field', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const res = await app.inject(
    `/api${QUOTE}?depositTokenId=abc&settleTokenId=-1&amount=1&amountIsDeposit=maybe`,
  )
  const body = assertProblem(t, res, 'VALIDATION_FAILED')
  const paths = (body.errors as Array<{ path: string }>).map((e) => e.path).sort()
  t.same(paths, ['query.amountIsDeposit', 'query.depositTokenId', 'query.settleTokenId'])
  const limits = await app.inject('/api/v1/tokens/swap-limits?depositTokenId=1')
  t.same(assertProblem(t, limits, 'VALIDATION_FAILED').errors, [
    { path: 'query.settleTokenId', message: 'is required' },
  ])
  const twice = await app.inject(
    `/api${QUOTE}?depositTokenId=1&settleTokenId=2&amount=1&amountIsDeposit=true&amountIsDeposit=false`,
  )
  t.same(assertProblem(t, twice, 'VALIDATION_FAILED').errors, [
    { path: 'query.amountIsDeposit', message: 'must be given only once' },
  ])
  // The document's bound on ids (int32), enforced: a larger id never reaches the upstream.
  const huge = await app.inject(
    `/api${QUOTE}?depositTokenId=2147483648&settleTokenId=2&amount=1&amountIsDeposit=true`,
  )
  t.same(assertProblem(t, huge, 'VALIDATION_FAILED').errors, [
    { path: 'query.depositTokenId', message: 'must be at most 2147483647' },
  ])
  t.equal(sandbox.control.requestsTo('GET /v1/tokens/quote').length, 0, 'nothing sent upstream')
})

t.test('an exchange rate of 0 is NO_QUOTE, retryable', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const p = picks(sandbox.control.tokens())
  sandbox.control.fault('GET /v1/tokens/quote', {
    kind: 'status',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      depositAmount: null,
      settleAmount: 0,
      exchangeRate: 0,
      depositTokenUsdValue: null,
    }),
  })
  const res = await app.inject(
    `/api${QUOTE}?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=5&amountIsDeposit=false`,
  )
  const body = assertProblem(t, res, 'NO_QUOTE', true)
  t.equal(body.depositTokenId, p.usdtEth.id)
})

t.test('an inactive token is PAIR_UNAVAILABLE', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const p = picks(sandbox.control.tokens())
  const res = await app.inject(
    `/api${QUOTE}?depositTokenId=${p.inactive.id}&settleTokenId=${p.eth.id}&amount=5&amountIsDeposit=true`,
  )
  assertProblem(t, res, 'PAIR_UNAVAILABLE')
})

t.test('an unknown token id is UNKNOWN_TOKEN naming the side, without a quote call', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const p = picks(sandbox.control.tokens())
  const res = await app.inject(
    `/api${QUOTE}?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.unknownId}&amount=5&amountIsDeposit=true`,
  )
  const body = assertProblem(t, res, 'UNKNOWN_TOKEN')
  t.equal(body.side, 'settle')
  t.equal(body.tokenId, p.unknownId)
  t.equal(sandbox.control.requestsTo('GET /v1/tokens/quote').length, 0)
})

t.test('identical quotes in flight share one upstream call', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const p = picks(sandbox.control.tokens())
  const url = `/api${QUOTE}?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=7&amountIsDeposit=true`
  await app.inject(url) // loads the catalog and warms the pool
  sandbox.control.clearRequests()
  sandbox.control.fault('GET /v1/tokens/quote', { kind: 'delay', ms: 150 })
  const all = await Promise.all(Array.from({ length: 20 }, () => app.inject(url)))
  t.same(
    all.map((r) => r.statusCode),
    Array(20).fill(200),
  )
  t.equal(new Set(all.map((r) => r.body)).size, 1, 'every caller got the same quote')
  t.equal(sandbox.control.requestsTo('GET /v1/tokens/quote').length, 1)
})
