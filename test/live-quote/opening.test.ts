import t from 'tap'
import type { ErrorCode } from '../../src/errors.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { assertProblem } from '../helpers/problem.js'
import { readRaw } from '../helpers/sse.js'
import { type QuoteParams, QUOTE_ROUTE, quoteGateway, REFRESH_MS } from './setup.js'

async function answer(url: string) {
  const res = await fetch(url, { headers: { accept: 'text/event-stream' } })
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
}

t.test(
  'a bad pair or amount is refused before the stream opens, exactly as the quote route refuses it',
  async (t) => {
    const gw = await quoteGateway(t)
    const good = gw.params()
    const cases: Array<[string, QuoteParams, ErrorCode]> = [
      ['an unknown deposit token', { ...good, depositTokenId: gw.p.unknownId }, 'UNKNOWN_TOKEN'],
      ['an unknown settle token', { ...good, settleTokenId: gw.p.unknownId }, 'UNKNOWN_TOKEN'],
      ['an inactive token', { ...good, settleTokenId: gw.p.inactive.id }, 'PAIR_UNAVAILABLE'],
      ['deposits off on its chain', { ...good, depositTokenId: gw.p.depositsOff.id }, 'PAIR_UNAVAILABLE'],
      ['a zero amount', { ...good, amount: 0 }, 'INVALID_AMOUNT'],
      ['an amount that is not a number', { ...good, amount: 'lots' }, 'INVALID_AMOUNT'],
      [
        'a token id that is not a number',
        { ...good, depositTokenId: 'x' as unknown as number },
        'VALIDATION_FAILED',
      ],
    ]
    for (const [what, q, code] of cases) {
      const stream = await answer(gw.streamUrl(q))
      const body = assertProblem(t, stream, code)
      const route = JSON.parse((await answer(gw.quoteUrl(q))).body) as Record<string, unknown>
      const { requestId: _a, ...streamed } = body
      const { requestId: _b, ...quoted } = route
      t.same(streamed, quoted, `${what}: the quote route's answer`)
    }
    t.equal(gw.calls().length, 0, 'nothing was asked of the upstream')
    t.match(gw.app.quoteHub.stats(), { openStreams: 0, polled: 0 })
  },
)

t.test(
  'a first quote with no price is NO_QUOTE, and an upstream failure its problem, not a stream',
  async (t) => {
    const gw = await quoteGateway(t)
    const q = gw.params()
    const noPrice = { depositAmount: null, settleAmount: 0, exchangeRate: 0, depositTokenUsdValue: null }
    gw.control.fault(QUOTE_ROUTE, {
      kind: 'status',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(noPrice),
      count: 2,
    })
    const stream = assertProblem(t, await answer(gw.streamUrl(q)), 'NO_QUOTE', true)
    const route = assertProblem(t, await answer(gw.quoteUrl(q)), 'NO_QUOTE', true)
    t.equal(stream.depositTokenId, route.depositTokenId)
    t.equal(stream.detail, route.detail)

    gw.control.fault(QUOTE_ROUTE, { kind: 'error500', count: 3 })
    assertProblem(t, await answer(gw.streamUrl(q)), 'UPSTREAM_ERROR', true)
    t.match(gw.app.quoteHub.stats(), { openStreams: 0, polled: 0 })
  },
)

t.test(
  'the stream ends after QUOTE_STREAM_MAX_MS, and the browser that reconnects is told 204 and stops',
  async (t) => {
    const clock = fakeClock()
    const gw = await quoteGateway(t, { clock, env: { QUOTE_STREAM_MAX_MS: '60000' } })
    const q = gw.params()
    const raw = await readRaw(gw.streamUrl(q))
    t.match(
      await raw.first(),
      /^retry: \d+\nevent: quote\ndata: \{.*"quotedAt":"[^"]+","event":"quote"\}\n\n$/s,
    )
    const w = gw.watch(q)
    await w.until('the first quote', () => w.of('quote').length === 1)

    const refreshed = gw.app.quoteHub.stats().refreshes
    clock.advance(59_999)
    await eventually('a refresh', () => gw.app.quoteHub.stats().refreshes > refreshed)
    t.equal(w.es.readyState, w.es.OPEN, 'not before its time')
    // Time is up: the refresh under way when it ran out, or the next one, ends the stream.
    let ended = false
    void raw.ended.then(() => (ended = true))
    clock.advance(1)
    for (let step = 0; step < 3 && !ended; step++) {
      const done = gw.app.quoteHub.stats().refreshes
      await eventually('a refresh, or the end', () => ended || gw.app.quoteHub.stats().refreshes > done)
      clock.advance(REFRESH_MS)
    }
    const { text } = await raw.ended
    t.match(
      text,
      /\n\nevent: end\nid: quote-stream-ended\ndata: \{"reason":"QUOTE_STREAM_MAX_MS","event":"end"\}\n\n$/,
    )
    await w.until('EventSource reconnected, was told 204 and stopped', () => w.es.readyState === w.es.CLOSED)
    t.equal(w.opens, 1)
    await eventually('the poll stopped', () => gw.app.quoteHub.stats().polled === 0)
    t.equal(gw.app.quoteHub.stats().openStreams, 0)

    const again = await fetch(gw.streamUrl(q), { headers: { 'last-event-id': 'quote-stream-ended' } })
    t.equal(again.status, 204)
    const fresh = gw.watch(q)
    await fresh.until('a new stream (no Last-Event-ID) watches again', () => fresh.of('quote').length === 1)
  },
)
