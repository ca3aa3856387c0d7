// GET /v1/tokens/quote (rules 1-5) and GET /v1/tokens/swap-limits, with their credentials.
import t from 'tap'
import { z } from 'zod'
import type { SandboxControl } from '../../src/sandbox/app.js'
import { NO_QUOTE, pricedQuoteSchema } from '../../src/sandbox/pricing/quote.js'
import { startSandbox } from '../helpers/sandbox.js'
import { call, TENANT } from './http.js'

const limitsSchema = z
  .object({
    depositTokenId: z.number(),
    settleTokenId: z.number(),
    minimalAmount: z.number(),
    maximalAmount: z.number(),
    minimalAmountUsd: z.number(),
    maximalAmountUsd: z.number(),
  })
  .strict()

const ETH = 2
const SOL = 3

function tokenId(control: SandboxControl, symbol: string, network: string): number {
  const token = control.tokens().find((tk) => tk.symbol === symbol && tk.blockchain.network === network)
  if (!token) throw new Error(`no ${symbol} on ${network}`)
  return token.id
}

function quotePath(query: Record<string, string | number | boolean>): string {
  return `/v1/tokens/quote?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`
}

const serverError = (message: string) => ({ statusCode: 500, message, error: 'Internal Server Error' })

t.test('quote and swap-limits need the tenant key or a valid Bearer token', async (t) => {
  const { url, control } = await startSandbox(t)
  const quote = quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount: 1, amountIsDeposit: true })
  const limits = `/v1/tokens/swap-limits?depositTokenId=${ETH}&settleTokenId=${SOL}`
  const refused = { message: 'Valid access token required.', error: 'Unauthorized', statusCode: 401 }
  for (const path of [quote, limits]) {
    t.same((await call(url, path)).body, refused, `${path}: no credential`)
    const wrong = await call(url, path, { headers: { 'x-tenant-api-key': 'nope' } })
    t.equal(wrong.status, 401)
    t.same(wrong.body, refused, `${path}: wrong key`)
    t.equal((await call(url, path, { headers: TENANT })).status, 200, `${path}: tenant key`)
    const bearer = {
      authorization: `Bearer ${control.issueAccessToken('0x000000000000000000000000000000000000dEaD', '1')}`,
    }
    t.equal((await call(url, path, { headers: bearer })).status, 200, `${path}: Bearer alone passes`)
  }
  const stale = {
    authorization: `Bearer ${control.issueAccessToken('0x000000000000000000000000000000000000dEaD', '1')}`,
  }
  control.advanceTime(16 * 60_000)
  t.equal((await call(url, quote, { headers: stale })).status, 401, 'a lapsed Bearer alone is refused')
  t.equal(
    (await call(url, quote, { headers: { ...stale, ...TENANT } })).status,
    200,
    'beside the key it is ignored',
  )
})

t.test('framework 400s: non-numeric token ids, missing or non-boolean amountIsDeposit', async (t) => {
  const { url } = await startSandbox(t)
  const numeric = {
    statusCode: 400,
    message: 'Validation failed (numeric string is expected)',
    error: 'Bad Request',
  }
  const boolean = {
    statusCode: 400,
    message: 'Validation failed (boolean string is expected)',
    error: 'Bad Request',
  }
  const cases: [Record<string, string | number>, object][] = [
    [{ depositTokenId: 'eth', settleTokenId: SOL, amount: 1, amountIsDeposit: 'true' }, numeric],
    [{ depositTokenId: ETH, settleTokenId: '3.5', amount: 1, amountIsDeposit: 'true' }, numeric],
    [{ settleTokenId: SOL, amount: 1, amountIsDeposit: 'true' }, numeric],
    [{ depositTokenId: ETH, settleTokenId: SOL, amount: 1 }, boolean],
    [{ depositTokenId: ETH, settleTokenId: SOL, amount: 1, amountIsDeposit: 'yes' }, boolean],
  ]
  for (const [query, expected] of cases) {
    const res = await call(url, quotePath(query), { headers: TENANT })
    t.equal(res.status, 400)
    t.same(res.body, expected, JSON.stringify(query))
  }
  const limits = await call(url, '/v1/tokens/swap-limits?depositTokenId=x&settleTokenId=3', {
    headers: TENANT,
  })
  t.equal(limits.status, 400)
  t.same(limits.body, numeric)
})

t.test('rule 1: an omitted or non-numeric amount is a 200 no-quote body', async (t) => {
  const { url } = await startSandbox(t)
  for (const amount of [undefined, 'abc', '', 'NaN']) {
    const query = {
      depositTokenId: ETH,
      settleTokenId: SOL,
      amountIsDeposit: true,
      ...(amount === undefined ? {} : { amount }),
    }
    const res = await call(url, quotePath(query), { headers: TENANT })
    t.equal(res.status, 200)
    t.same(res.body, { depositAmount: null, settleAmount: 0, exchangeRate: 0, depositTokenUsdValue: null })
  }
  t.same(NO_QUOTE, { depositAmount: null, settleAmount: 0, exchangeRate: 0, depositTokenUsdValue: null })
})

t.test('rule 3: amount 0 is "Invalid amount: 0"; a negative amount is refused the same way', async (t) => {
  const { url } = await startSandbox(t)
  const zero = await call(
    url,
    quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount: 0, amountIsDeposit: true }),
    {
      headers: TENANT,
    },
  )
  t.equal(zero.status, 500)
  t.same(zero.body, serverError('Invalid amount: 0'))
  const negative = await call(
    url,
    quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount: -2.5, amountIsDeposit: false }),
    { headers: TENANT },
  )
  t.same(negative.body, serverError('Invalid amount: -2.5'))
})

t.test('rule 4: unknown token ids, deposit side first', async (t) => {
  const { url } = await startSandbox(t)
  const q = (d: number, s: number) =>
    quotePath({ depositTokenId: d, settleTokenId: s, amount: 1, amountIsDeposit: true })
  t.same(
    (await call(url, q(999999, SOL), { headers: TENANT })).body,
    serverError('Invalid deposit token id provided: 999999'),
  )
  t.same(
    (await call(url, q(ETH, 888888), { headers: TENANT })).body,
    serverError('Invalid settle token id provided: 888888'),
  )
  t.same(
    (await call(url, q(999999, 888888), { headers: TENANT })).body,
    serverError('Invalid deposit token id provided: 999999'),
  )
  const limits = await call(url, '/v1/tokens/swap-limits?depositTokenId=2&settleTokenId=777777', {
    headers: TENANT,
  })
  t.same(limits.body, serverError('Invalid settle token id provided: 777777'))
})

t.test(
  'rule 5: an inactive token on either side is "Couldn\'t find trade path" (quote and swap-limits)',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const busd = tokenId(control, 'BUSD', 'ETH')
    t.equal(control.tokens().find((tk) => tk.id === busd)?.active, false, 'BUSD is listed inactive')
    for (const [d, s] of [
      [busd, SOL],
      [ETH, busd],
    ] as const) {
      const expected = serverError(`Couldn't find trade path for ${d} -> ${s}`)
      const quote = await call(
        url,
        quotePath({ depositTokenId: d, settleTokenId: s, amount: 1, amountIsDeposit: true }),
        {
          headers: TENANT,
        },
      )
      t.same(quote.body, expected)
      const noAmount = await call(
        url,
        quotePath({ depositTokenId: d, settleTokenId: s, amountIsDeposit: true }),
        {
          headers: TENANT,
        },
      )
      t.same(noAmount.body, expected, 'token checks come before the amount')
      const limits = await call(url, `/v1/tokens/swap-limits?depositTokenId=${d}&settleTokenId=${s}`, {
        headers: TENANT,
      })
      t.same(limits.body, expected)
    }
    control.setTokenActive(SOL, false)
    const now = await call(
      url,
      quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount: 1, amountIsDeposit: true }),
      {
        headers: TENANT,
      },
    )
    t.same(
      now.body,
      serverError(`Couldn't find trade path for ${ETH} -> ${SOL}`),
      'switching a token off takes effect',
    )
  },
)

t.test(
  'a deposit token on a chain with deposits off has no trade path; settling there is fine',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const ftm = tokenId(control, 'FTM', 'FTM')
    const off = await call(
      url,
      quotePath({ depositTokenId: ftm, settleTokenId: ETH, amount: 10, amountIsDeposit: true }),
      {
        headers: TENANT,
      },
    )
    t.same(off.body, serverError(`Couldn't find trade path for ${ftm} -> ${ETH}`))
    const limits = await call(url, `/v1/tokens/swap-limits?depositTokenId=${ftm}&settleTokenId=${ETH}`, {
      headers: TENANT,
    })
    t.same(limits.body, serverError(`Couldn't find trade path for ${ftm} -> ${ETH}`))
    const settle = await call(
      url,
      quotePath({ depositTokenId: ETH, settleTokenId: ftm, amount: 1, amountIsDeposit: true }),
      {
        headers: TENANT,
      },
    )
    t.equal(settle.status, 200)
  },
)

t.test(
  'a priced quote from the deposit side, with the undocumented exchange and tradePath members',
  async (t) => {
    const { url } = await startSandbox(t)
    const res = await call(
      url,
      quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount: 2, amountIsDeposit: true }),
      {
        headers: TENANT,
      },
    )
    t.equal(res.status, 200)
    const quote = pricedQuoteSchema.strict().parse(res.body)
    t.equal(quote.depositAmount, 2)
    t.ok(
      quote.exchangeRate > 20 && quote.exchangeRate < 21.4,
      `ETH/SOL rate near 3180/148.6 less margin (${quote.exchangeRate})`,
    )
    t.ok(Math.abs(quote.settleAmount - 2 * quote.exchangeRate) < 1e-6)
    t.equal(quote.depositTokenUsdValue, 6360)
    t.equal(quote.exchange, 'CEX')
    t.same(quote.tradePath, [
      { symbol: 'ETHUSDT', side: 'SELL', inputToken: 'ETH', outputToken: 'USDT' },
      { symbol: 'solusdt', side: 'BUY', inputToken: 'USDT', outputToken: 'SOL' },
    ])
    const again = await call(
      url,
      quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount: 2, amountIsDeposit: true }),
      {
        headers: TENANT,
      },
    )
    t.same(again.body, res.body, 'prices are deterministic')
  },
)

t.test('amountIsDeposit=false fixes the settle amount', async (t) => {
  const { url } = await startSandbox(t)
  const res = await call(
    url,
    quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount: 100, amountIsDeposit: false }),
    {
      headers: TENANT,
    },
  )
  const quote = pricedQuoteSchema.parse(res.body)
  t.equal(quote.settleAmount, 100)
  t.ok(Math.abs(quote.depositAmount * quote.exchangeRate - 100) < 1e-4, 'deposit × rate = settle')
})

t.test(
  'rule 2: quotes do not enforce limits; an oversized amount gets slippage folded into the rate',
  async (t) => {
    const { url } = await startSandbox(t)
    const limits = limitsSchema.parse(
      (
        await call(url, `/v1/tokens/swap-limits?depositTokenId=${ETH}&settleTokenId=${SOL}`, {
          headers: TENANT,
        })
      ).body,
    )
    const rate = async (amount: number) => {
      const res = await call(
        url,
        quotePath({ depositTokenId: ETH, settleTokenId: SOL, amount, amountIsDeposit: true }),
        {
          headers: TENANT,
        },
      )
      t.equal(res.status, 200, `amount ${amount} is quoted`)
      return pricedQuoteSchema.parse(res.body).exchangeRate
    }
    const normal = await rate(limits.maximalAmount / 2)
    const oversized = await rate(limits.maximalAmount * 10)
    t.equal(await rate(limits.minimalAmount / 10), normal, 'below the minimum: same rate, still quoted')
    t.ok(oversized < normal * 0.95, `10× the maximum loses rate (${oversized} < ${normal})`)
  },
)

t.test('swap-limits: minimal and maximal deposit amounts for the pair', async (t) => {
  const { url, control } = await startSandbox(t)
  const res = await call(url, `/v1/tokens/swap-limits?depositTokenId=${ETH}&settleTokenId=${SOL}`, {
    headers: TENANT,
  })
  t.equal(res.status, 200)
  const limits = limitsSchema.parse(res.body)
  t.equal(limits.depositTokenId, ETH)
  t.equal(limits.settleTokenId, SOL)
  t.ok(limits.minimalAmount > 0 && limits.minimalAmount < limits.maximalAmount)
  t.ok(
    Math.abs(limits.minimalAmount * 3180 - limits.minimalAmountUsd) < 0.01,
    'minimum is in deposit-token units',
  )
  const usdt = tokenId(control, 'USDT', 'TRX')
  const stable = limitsSchema.parse(
    (
      await call(url, `/v1/tokens/swap-limits?depositTokenId=${usdt}&settleTokenId=${ETH}`, {
        headers: TENANT,
      })
    ).body,
  )
  t.equal(stable.minimalAmount, 15)
  t.equal(stable.maximalAmount, 250_000)
})
