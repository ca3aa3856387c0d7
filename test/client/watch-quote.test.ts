// watchQuote: the quote delivered typed at once and again when its price moves, a failed refresh as a
// problem while the stream goes on, a refused stream as the problem the quote route gives, the end of
// a stream's longest life, and the pause while a browser page is hidden.
import t from 'tap'
import type { GatewayProblem, LiveQuote, PageVisibility, QuoteHandlers } from 'swap-gateway-client'
import { eventually } from '../helpers/eventually.js'
import { clientGateway, countingEventSource, pastReconnects } from './setup.js'

function recorder() {
  const quotes: LiveQuote[] = []
  const problems: GatewayProblem[] = []
  let ended = 0
  const handlers: QuoteHandlers = {
    onQuote: (quote) => quotes.push(quote),
    onProblem: (problem) => problems.push(problem),
    onEnd: () => {
      ended++
    },
  }
  return { quotes, problems, handlers, ended: () => ended }
}

/** A page whose visibility the test sets, as a browser's `document` tells it. */
function page() {
  const listeners = new Set<() => void>()
  const p: PageVisibility & { show(visible: boolean): void } = {
    visibilityState: 'visible',
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    show(visible) {
      ;(p as { visibilityState: string }).visibilityState = visible ? 'visible' : 'hidden'
      for (const l of listeners) l()
    },
  }
  return p
}

t.test('the quote at once, a new one when the price moves, a failed refresh as a problem', async (t) => {
  const gw = await clientGateway(t, { env: { QUOTE_REFRESH_MS: '40' } })
  const client = gw.client()
  const rec = recorder()
  const params = {
    depositTokenId: gw.p.usdtEth.id,
    settleTokenId: gw.p.eth.id,
    amount: 100,
    amountIsDeposit: true,
  }
  const watching = client.watchQuote(params, rec.handlers)
  t.teardown(() => watching.close())
  await eventually('the first quote', () => rec.quotes.length === 1)
  t.type(rec.quotes[0]!.exchangeRate, 'number')
  t.match(rec.quotes[0]!.quotedAt, /^\d{4}-\d\d-\d\dT/)

  gw.control.setTokenPrice(gw.p.eth.id, 2345.6)
  await eventually('the moved price', () => rec.quotes.length === 2)
  t.not(rec.quotes[1]!.exchangeRate, rec.quotes[0]!.exchangeRate)

  gw.control.fault('GET /v1/tokens/quote', { kind: 'error500' })
  await eventually('the problem', () => rec.problems.length === 1)
  t.match(rec.problems[0], {
    name: 'GatewayProblem',
    code: 'UPSTREAM_ERROR',
    retryable: true,
    method: 'watchQuote',
  })
  gw.control.setTokenPrice(gw.p.eth.id, 2222.2)
  await eventually('a fresh quote after it', () => rec.quotes.length === 3)

  watching.close()
  await eventually('the gateway saw it leave', () => gw.app.quoteHub.stats().polled === 0)
  t.equal(rec.ended(), 0)
})

t.test('a refused stream is the problem the quote route gives, and the watch is over', async (t) => {
  const gw = await clientGateway(t)
  const rec = recorder()
  const params = {
    depositTokenId: gw.p.usdtEth.id,
    settleTokenId: gw.p.inactive.id,
    amount: 1,
    amountIsDeposit: true,
  }
  gw.client().watchQuote(params, rec.handlers)
  await eventually('the problem', () => rec.problems.length === 1)
  t.match(rec.problems[0], { code: 'PAIR_UNAVAILABLE', status: 422, method: 'watchQuote' })
  t.equal(rec.quotes.length, 0)
})

t.test("the end of the stream's longest life is onEnd, with no reconnect", async (t) => {
  const gw = await clientGateway(t, { env: { QUOTE_REFRESH_MS: '40', QUOTE_STREAM_MAX_MS: '300' } })
  const rec = recorder()
  const params = {
    depositTokenId: gw.p.usdtEth.id,
    settleTokenId: gw.p.eth.id,
    amount: 5,
    amountIsDeposit: true,
  }
  const counting = countingEventSource()
  gw.client({ EventSource: counting.EventSource }).watchQuote(params, rec.handlers)
  await eventually('the end', () => rec.ended() === 1)
  await eventually('the gateway holds nothing', () => gw.app.quoteHub.stats().openStreams === 0)
  await pastReconnects(t, counting.connections[0]!)
  t.equal(counting.connections.length, 1, 'nobody reconnected')
  t.equal(gw.app.quoteHub.stats().polled, 0, 'the gateway polls for nobody')
  t.equal(rec.quotes.length, 1)
})

t.test('in a browser page the stream pauses while the page is hidden', async (t) => {
  const gw = await clientGateway(t, { env: { QUOTE_REFRESH_MS: '40' } })
  const visibility = page()
  const document = (globalThis as { document?: unknown }).document
  ;(globalThis as { document?: unknown }).document = visibility
  t.teardown(() => {
    ;(globalThis as { document?: unknown }).document = document
  })
  const rec = recorder()
  const params = {
    depositTokenId: gw.p.usdtEth.id,
    settleTokenId: gw.p.eth.id,
    amount: 7,
    amountIsDeposit: true,
  }
  const watching = gw.client({ sessionMode: 'token' }).watchQuote(params, rec.handlers)
  t.teardown(() => watching.close())
  await eventually('the first quote', () => rec.quotes.length === 1)
  visibility.show(false)
  await eventually('the stream closed while hidden', () => gw.app.quoteHub.stats().polled === 0)
  const calls = gw.control.requestsTo('GET /v1/tokens/quote').length
  visibility.show(true)
  await eventually('a fresh quote at once when shown', () => rec.quotes.length === 2)
  t.equal(
    gw.control.requestsTo('GET /v1/tokens/quote').length,
    calls + 1,
    'no refresh for a hidden page: the one call since is for the page shown again',
  )
  t.equal(rec.problems.length, 0)
})
