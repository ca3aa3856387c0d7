// A listening gateway in front of a fresh sandbox for live quote tests: short refresh intervals, an
// injectable clock (the silence bound, the 429 pause and the stream's longest life are read from it,
// so tests move it instead of waiting), and watchers that read the stream as a browser does.
import type { Test } from 'tap'
import type { SandboxOptions } from '../../src/sandbox/app.js'
import type { FakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'
import { picks } from '../helpers/picks.js'
import { type Follower, follow } from '../helpers/sse.js'

export const QUOTE_ROUTE = 'GET /v1/tokens/quote'
/** QUOTE_REFRESH_MS unless a test sets its own. */
export const REFRESH_MS = 40
/** The events a watcher records: quotes, and the problems of refreshes that failed. */
const QUOTE_EVENTS = ['quote', 'problem']

/** Generous request limits: these tests are about live quotes, not the request rate limiter. */
const RATE_LIMITS = JSON.stringify({
  pricing: { max: 100_000, timeWindow: '1 minute' },
  stream: { max: 100_000, timeWindow: '1 minute' },
})

export interface QuoteSetup {
  env?: Record<string, string>
  sandbox?: SandboxOptions
  clock?: FakeClock
}

export interface QuoteParams {
  depositTokenId: number
  settleTokenId: number
  amount: number | string
  amountIsDeposit: boolean
}

export async function quoteGateway(t: Test, setup: QuoteSetup = {}) {
  const watchers: Follower[] = []
  t.teardown(() => {
    for (const w of watchers) w.close()
  })
  const gw = await startGateway(t, {
    listen: true,
    env: {
      RATE_LIMITS,
      SSE_RETRY_MS: '100',
      SSE_DRAIN_SPREAD_MS: '0',
      QUOTE_REFRESH_MS: String(REFRESH_MS),
      ...setup.env,
    },
    sandbox: setup.sandbox,
    deps: setup.clock ? { clock: setup.clock } : {},
  })
  const p = picks(gw.sandbox.control.tokens())
  const control = gw.sandbox.control
  const params = (amount: number | string = 100): QuoteParams => ({
    depositTokenId: p.usdtEth.id,
    settleTokenId: p.eth.id,
    amount,
    amountIsDeposit: true,
  })
  const query = (q: QuoteParams) =>
    new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString()
  return {
    ...gw,
    p,
    control,
    params,
    streamUrl: (q: QuoteParams) => `${gw.url}/api/v1/tokens/quote/stream?${query(q)}`,
    quoteUrl: (q: QuoteParams) => `${gw.url}/api/v1/tokens/quote?${query(q)}`,
    /** The quote calls the sandbox received, in order. */
    calls: () => control.requestsTo(QUOTE_ROUTE),
    watch(q: QuoteParams, headers?: Record<string, string>): Follower {
      const w = follow(t, `${gw.url}/api/v1/tokens/quote/stream?${query(q)}`, {
        events: QUOTE_EVENTS,
        headers,
      })
      watchers.push(w)
      return w
    },
  }
}

/** Moves the clock one refresh on and waits for that refresh to be done (answered, or refused). */
export async function nextRefresh(
  gw: Awaited<ReturnType<typeof quoteGateway>>,
  clock: FakeClock,
  refreshMs = REFRESH_MS,
): Promise<void> {
  const settled = () => gw.app.quoteHub.stats().refreshes + gw.app.quoteHub.stats().refused
  const before = settled()
  clock.advance(refreshMs)
  await eventually('the refresh', () => settled() > before)
}
