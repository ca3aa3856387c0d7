import t from 'tap'
import { fakeClock } from '../helpers/clock.js'
import { nextRefresh, QUOTE_ROUTE, quoteGateway } from './setup.js'

/** The quote's price, without the moment it was priced. */
const price = ({ quotedAt: _, ...rest }: Record<string, unknown>) => rest
/** The refresh interval of the tests that move the clock: six of them make the 30 s silence bound. */
const STEP_MS = 5_000

t.test(
  'an unchanged price sends no quote event until QUOTE_STREAM_MAX_SILENCE_MS; a changed one is sent at the next refresh',
  async (t) => {
    // The clock stands still unless moved: each refresh is a step of the clock.
    const clock = fakeClock()
    const gw = await quoteGateway(t, {
      clock,
      env: { QUOTE_STEP_MS: String(STEP_MS), QUOTE_STREAM_MAX_SILENCE_MS: '30000' },
    })
    const refresh = () => nextRefresh(gw, clock, STEP_MS)
    const w = gw.watch(gw.params())
    await w.until('the first quote, at once', () => w.of('quote').length === 1)
    const first = w.of('quote')[0]!.data
    t.equal(first.quotedAt, new Date(clock.now()).toISOString(), 'quotedAt: when it was priced')
    t.equal(first.event, 'quote', 'the data names its event')

    for (let i = 0; i < 5; i++) await refresh()
    t.equal(w.of('quote').length, 1, 'no event for five refreshes that changed nothing')

    await refresh()
    await w.until('the silence bound', () => w.of('quote').length === 2)
    const second = w.of('quote')[1]!.data
    t.same(price(second), price(first), 'the same price, said again')
    t.equal(Date.parse(String(second.quotedAt)) - Date.parse(String(first.quotedAt)), 30_000)

    gw.control.setTokenPrice(gw.p.eth.id, 1234.5)
    await refresh()
    await w.until('the changed price', () => w.of('quote').length === 3)
    const third = w.of('quote')[2]!.data
    t.not(third.exchangeRate, second.exchangeRate, 'a new rate')
    t.not(third.settleAmount, second.settleAmount)
    t.equal(
      Date.parse(String(third.quotedAt)) - Date.parse(String(second.quotedAt)),
      STEP_MS,
      'sent at the next refresh: not the silence bound',
    )
    t.equal(w.of('problem').length, 0)
    t.equal(w.opens, 1, 'one stream all along')
  },
)

t.test(
  'an upstream failure mid-stream is one problem event; the refreshes go on, and fresh quotes follow',
  async (t) => {
    const gw = await quoteGateway(t, { env: { QUOTE_STEP_MS: '30' } })
    const w = gw.watch(gw.params())
    await w.until('the first quote', () => w.of('quote').length === 1)
    const before = gw.calls().length
    gw.control.fault(QUOTE_ROUTE, { kind: 'error500', count: 3 })
    await w.until('the problem', () => w.of('problem').length === 1)
    await w.until('a fresh quote after it', () => w.events.at(-1)?.type === 'quote' && w.events.length >= 3)
    t.same(
      w.events.map((e) => e.type),
      ['quote', 'problem', 'quote'],
      'one problem event for a failure that lasted three refreshes',
    )
    const problem = w.of('problem')[0]!.data
    t.match(problem, {
      type: /^http:\/\/localhost:\d+\/api\/docs\/errors#upstream-error$/,
      event: 'problem',
      code: 'UPSTREAM_ERROR',
      status: 502,
      retryable: true,
      detail: String,
      title: String,
    })
    t.notMatch(JSON.stringify(problem), /statusCode|Internal server error/i, 'no upstream text')
    const failed = gw.calls().slice(before, before + 3)
    t.equal(
      new Set(failed.map((c) => c.headers['x-request-id'])).size,
      3,
      'three refreshes, each one call: a failed refresh is not retried at once',
    )
    t.ok(
      failed.some((c) => c.headers['x-request-id'] === problem.requestId),
      'the problem names the refresh that failed',
    )
    t.same(
      price(w.of('quote')[1]!.data),
      price(w.of('quote')[0]!.data),
      'the price, sent again after the problem',
    )
  },
)

t.test(
  'a 429 from the upstream pauses polling until its Retry-After has passed, with no event',
  async (t) => {
    const clock = fakeClock()
    const gw = await quoteGateway(t, { clock, env: { QUOTE_STEP_MS: String(STEP_MS) } })
    const w = gw.watch(gw.params())
    await w.until('the first quote', () => w.of('quote').length === 1)
    gw.control.fault(QUOTE_ROUTE, {
      kind: 'status',
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '60' },
      body: JSON.stringify({ statusCode: 429, message: 'ThrottlerException: Too Many Requests' }),
    })
    const limited = gw.calls().length
    await nextRefresh(gw, clock, STEP_MS)
    t.equal(gw.calls().length, limited + 1, 'the refresh that met the 429')
    const limitedAt = clock.now()
    const refused = gw.app.quoteHub.stats().refused
    for (let i = 0; i < 5; i++) await nextRefresh(gw, clock, STEP_MS)
    t.equal(gw.app.quoteHub.stats().refused, refused + 5, 'five refreshes held back')
    t.equal(gw.calls().length, limited + 1, 'not one call during the pause')
    t.same(
      w.events.map((e) => e.type),
      ['quote'],
      'a refused refresh sends nothing',
    )
    const metrics = await gw.app.metrics.registry.metrics()
    t.match(metrics, /^gateway_quote_refreshes_refused_total [1-9]\d*$/m)

    while (gw.calls().length === limited + 1 && clock.now() - limitedAt < 120_000)
      await nextRefresh(gw, clock, STEP_MS)
    t.equal(gw.calls().length, limited + 2, 'polling resumed')
    t.ok(clock.now() - limitedAt >= 60_000, 'once the Retry-After had passed')
    await w.until('a fresh quote (the silence bound has passed meanwhile)', () => w.of('quote').length === 2)
    t.equal(w.opens, 1, 'the stream carried on')
  },
)
