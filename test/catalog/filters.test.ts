import t from 'tap'
import type { Token } from '../../src/upstream/schemas.js'
import { startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'
import { upstreamCatalog } from './support.js'

const TOKENS = '/api/v1/tokens'

/** The filtered list keeps the upstream's objects and their order: a subsequence of the catalog. */
function isSubsequence(part: Token[], whole: Token[]): boolean {
  let i = 0
  for (const token of whole) if (i < part.length && JSON.stringify(part[i]) === JSON.stringify(token)) i++
  return i === part.length
}

t.test('every filter selects what the contract says, as a subsequence of the catalog', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const { tokens } = await upstreamCatalog(sandbox.url)
  const get = async (query: string) => {
    const res = await app.inject(`${TOKENS}?${query}`)
    t.equal(res.statusCode, 200, query)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    const body = res.json() as Token[]
    t.ok(isSubsequence(body, tokens), `${query}: upstream objects in upstream order`)
    return body
  }
  const tradable = (tk: Token) => tk.active && tk.blockchain.depositsActive

  const yes = await get('tradable=true')
  const no = await get('tradable=false')
  t.equal(yes.length, tokens.filter(tradable).length)
  t.ok(yes.every(tradable), 'tradable=true: active on a chain taking deposits')
  t.equal(no.length, tokens.length - yes.length)
  t.ok(
    no.every((tk) => !tradable(tk)),
    'tradable=false: the rest',
  )
  t.ok(
    no.some((tk) => tk.active && !tk.blockchain.depositsActive),
    'including active tokens on closed chains',
  )

  const eth = await get('network=ETH')
  t.equal(eth.length, tokens.filter((tk) => tk.blockchain.network === 'ETH').length)
  t.ok(eth.length > 0)
  t.same(await get('network=eth'), eth, 'network is case-insensitive')
  t.same(await get('network=NOPE'), [], 'an unknown network is an empty list')

  const usdt = await get('symbol=usdt')
  t.ok(usdt.length > 1, 'USDT on several chains')
  t.ok(
    usdt.every((tk) => tk.symbol.toUpperCase() === 'USDT'),
    'symbol is exact, case-insensitive',
  )
  t.equal(usdt.length, tokens.filter((tk) => tk.symbol.toUpperCase() === 'USDT').length)

  const q = await get('q=ETH')
  const hasEth = (tk: Token) =>
    tk.name.toLowerCase().includes('eth') || tk.symbol.toLowerCase().includes('eth')
  t.equal(q.length, tokens.filter(hasEth).length, 'q: substring of name or symbol, any case')
  t.ok(
    q.some((tk) => !tk.symbol.toLowerCase().includes('eth')),
    'matches on the name alone too',
  )

  const combined = await get('tradable=true&network=eth&symbol=USDT')
  t.equal(combined.length, 1)
  t.equal(combined[0]?.symbol, 'USDT')
  t.equal(combined[0]?.blockchain.network, 'ETH')
  t.same(await get('q=%20ether%20'), await get('q=ether'), 'surrounding spaces are not part of the filter')
})

t.test('filtered bodies have their own ETag and 304, and are built once per filter', async (t) => {
  const { app } = await startGateway(t)
  const full = await app.inject(TOKENS)
  const first = await app.inject({
    url: `${TOKENS}?network=SOL&tradable=true`,
    headers: { 'accept-encoding': 'br' },
  })
  t.equal(first.statusCode, 200)
  t.not(first.headers.etag, full.headers.etag)
  t.equal(first.headers['x-cache-status'], 'HIT')
  const built = app.catalog.stats().serializations
  const respelled = await app.inject({
    url: `${TOKENS}?tradable=true&network=sol`,
    headers: { 'accept-encoding': 'br' },
  })
  t.equal(respelled.headers.etag, first.headers.etag, 'same filter in another spelling, same body')
  t.ok(respelled.rawPayload.equals(first.rawPayload))
  const revalidated = await app.inject({
    url: `${TOKENS}?network=SOL&tradable=true`,
    headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
  })
  t.equal(revalidated.statusCode, 304)
  t.equal(app.catalog.stats().serializations, built, 'no re-serialisation for repeats')
})

t.test('parameters that are not filters are ignored: the catalog bytes and ETag are unchanged', async (t) => {
  const { app } = await startGateway(t)
  const full = await app.inject(TOKENS)
  const busted = await app.inject(`${TOKENS}?_=1700000000&v=2`)
  t.equal(busted.statusCode, 200)
  t.equal(busted.headers.etag, full.headers.etag)
  t.ok(busted.rawPayload.equals(full.rawPayload))
})

t.test(
  'bad filter values are VALIDATION_FAILED, one error per field, before any upstream call',
  async (t) => {
    const { app, sandbox } = await startGateway(t)
    sandbox.control.clearRequests()
    const cases: Array<[string, string[]]> = [
      ['tradable=maybe', ['query.tradable']],
      ['tradable=TRUE', ['query.tradable']],
      ['tradable=', ['query.tradable']],
      ['q=', ['query.q']],
      ['q=%20%20', ['query.q']],
      [`q=${'x'.repeat(65)}`, ['query.q']],
      [`symbol=${'x'.repeat(33)}`, ['query.symbol']],
      [`network=${'x'.repeat(33)}`, ['query.network']],
      ['network=ETH&network=SOL', ['query.network']],
      ['symbol=a%00b', ['query.symbol']],
      ['tradable=maybe&q=&network=a&network=b', ['query.network', 'query.q', 'query.tradable']],
    ]
    for (const [query, fields] of cases) {
      const res = await app.inject(`${TOKENS}?${query}`)
      const body = assertProblem(t, res, 'VALIDATION_FAILED')
      const errors = body.errors as Array<{ path: string; message: string }>
      t.same(errors.map((e) => e.path).sort(), fields, query)
    }
    const repeated = await app.inject(`${TOKENS}?symbol=USDT&symbol=ETH`)
    t.match(repeated.json().errors, [{ path: 'query.symbol', message: 'must be given only once' }])
    const long = await app.inject(`${TOKENS}?q=${'x'.repeat(65)}`)
    t.match(long.json().errors, [{ path: 'query.q', message: 'must be at most 64 characters' }])
    t.equal(sandbox.control.requests.length, 0, 'the upstream saw nothing')
  },
)
