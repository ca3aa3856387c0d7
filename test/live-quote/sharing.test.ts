import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import type { Follower } from '../helpers/sse.js'
import { fakeClock } from '../helpers/clock.js'
import { nextRefresh, type QuoteParams, quoteGateway, REFRESH_MS } from './setup.js'

/** The refresh interval of the tests that count calls in real time. */
const INTERVAL_MS = 60

/**
 * The quote calls the sandbox received for one set of parameters are one per interval: no more of
 * them than the time between the first and the last allows (give or take one, for the time each
 * call spent on its way), whatever the number of watchers.
 */
function onePerInterval(t: Test, at: number[], what: string) {
  const span = at[at.length - 1]! - at[0]!
  t.ok(at.length >= 4, `${what}: several refreshes (${at.length})`)
  t.ok(
    (at.length - 1) * INTERVAL_MS <= span + INTERVAL_MS,
    `${what}: ${at.length} calls in ${span} ms, at most one per ${INTERVAL_MS} ms`,
  )
}

const opened = (watchers: Follower[]) =>
  Promise.all(watchers.map((w) => w.until('the first quote', () => w.of('quote').length >= 1)))

t.test('eight clients watching one quote make one upstream call per QUOTE_REFRESH_MS', async (t) => {
  const gw = await quoteGateway(t, { env: { QUOTE_REFRESH_MS: String(INTERVAL_MS) } })
  const q = gw.params()
  const watchers = Array.from({ length: 8 }, () => gw.watch(q))
  await opened(watchers)
  t.match(gw.app.quoteHub.stats(), { openStreams: 8, polled: 1 })
  const first = watchers.map((w) => w.of('quote')[0]!.data)
  const price = ({ quotedAt: _, ...rest }: Record<string, unknown>) => JSON.stringify(rest)
  t.equal(new Set(first.map(price)).size, 1, 'every watcher got the same price')
  t.match(first[0], { exchangeRate: Number, settleAmount: Number, quotedAt: String, tradePath: Array })

  await eventually('a few refreshes', () => gw.calls().length >= 6)
  for (const w of watchers) w.close()
  await eventually('the poll stopped', () => gw.app.quoteHub.stats().polled === 0)
  const calls = gw.calls()
  t.same(new Set(calls.map((c) => c.url)).size, 1, 'one distinct quote asked for')
  t.equal(gw.app.quoteHub.stats().refreshes, calls.length, 'every upstream quote was a refresh of the poll')
  onePerInterval(
    t,
    calls.map((c) => c.at),
    'one quote, eight watchers',
  )
})

t.test('two quotes watched by four clients each: two calls per interval, one per quote', async (t) => {
  const gw = await quoteGateway(t, { env: { QUOTE_REFRESH_MS: String(INTERVAL_MS) } })
  const quotes: QuoteParams[] = [gw.params(100), gw.params(250)]
  const watchers = quotes.flatMap((q) => Array.from({ length: 4 }, () => gw.watch(q)))
  await opened(watchers)
  t.match(gw.app.quoteHub.stats(), { openStreams: 8, polled: 2 })
  await eventually('a few refreshes of each', () => gw.calls().length >= 10)
  for (const w of watchers) w.close()
  await eventually('both polls stopped', () => gw.app.quoteHub.stats().polled === 0)
  const calls = gw.calls()
  const byUrl = new Map<string, number[]>()
  for (const c of calls) byUrl.set(c.url, [...(byUrl.get(c.url) ?? []), c.at])
  t.equal(byUrl.size, 2, 'two distinct quotes asked for')
  for (const [url, at] of byUrl) onePerInterval(t, at, url.split('?')[1]!)
})

t.test('polling stops when the last watcher leaves, and not before', async (t) => {
  const clock = fakeClock()
  const gw = await quoteGateway(t, { clock })
  const q = gw.params()
  const [a, b] = [gw.watch(q), gw.watch(q)]
  await opened([a, b])
  a.close()
  const before = gw.calls().length
  for (let i = 0; i < 3; i++) await nextRefresh(gw, clock)
  t.equal(gw.calls().length, before + 3, 'refreshes go on for the one left')
  t.equal(gw.app.quoteHub.stats().polled, 1)

  b.close()
  await eventually('the poll stopped', () => gw.app.quoteHub.stats().polled === 0)
  await eventually('the stream closed', () => gw.app.quoteHub.stats().openStreams === 0)
  const stopped = gw.calls().length
  // Ten intervals with nobody watching, then a new watcher: its opening quote is the one call since.
  clock.advance(10 * REFRESH_MS)
  const c = gw.watch(q)
  await opened([c])
  t.equal(
    gw.calls().length,
    stopped + 1,
    'no call for a quote nobody watches; a new watcher starts the poll again',
  )
  t.equal(gw.app.quoteHub.stats().polled, 1)
})
