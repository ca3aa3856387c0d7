// POST /v1/orders/create and GET /v1/orders/{uuid}: fields per representation, bounds, deposit
// addresses, attribution, and every documented error.
import { base58, bech32m } from '@scure/base'
import t from 'tap'
import { getAddress } from 'viem'
import { base58check } from '../../src/sandbox/addresses/formats.js'
import type { SandboxControl } from '../../src/sandbox/app.js'
import { createdOrderSchema, orderDetailsSchema } from '../../src/sandbox/resources.js'
import { startSandbox } from '../helpers/sandbox.js'
import { signInToSandbox } from '../helpers/sign-in.js'
import { call, cookiePair, createOrder, TENANT } from './http.js'

const ETH = 2
const SOL = 3
const BTC = 1
const TRX = 4
const SOL_ADDRESS = 'So11111111111111111111111111111111111111112'
const serverError = (message: string) => ({ message, error: 'Internal Server Error', statusCode: 500 })

function tokenId(control: SandboxControl, symbol: string, network: string): number {
  const token = control.tokens().find((tk) => tk.symbol === symbol && tk.blockchain.network === network)
  if (!token) throw new Error(`no ${symbol} on ${network}`)
  return token.id
}

function create(url: string, body: unknown, headers: Record<string, string> = TENANT) {
  return call(url, '/v1/orders/create', { headers, json: body })
}

const valid = {
  depositTokenId: ETH,
  settleTokenId: SOL,
  receivingAddress: SOL_ADDRESS,
  intendedAmount: 1,
  intendedIsDeposit: true,
}

t.test('create answers 201 with every Order field plus walletAddress, and no expanded tokens', async (t) => {
  const { url } = await startSandbox(t)
  const res = await create(url, valid)
  t.equal(res.status, 201)
  const order = createdOrderSchema.strict().parse(res.body)
  t.equal(order.status, 'AWAITING_USER_DEPOSIT')
  t.equal(
    Date.parse(order.timeout) - Date.parse(order.createdAt),
    30 * 60_000,
    'timeout = createdAt + 30 min',
  )
  t.strictSame(
    [
      order.depositAmount,
      order.depositEstSettleAmount,
      order.settleAmount,
      order.senderDepositTx,
      order.exchangeWithdrawTx,
    ],
    [null, null, null, null, null],
  )
  t.equal(order.exchangeWithdrawTxLink, null)
  t.equal(order.userId, null, 'tenant-key orders have no user')
  t.equal(order.exchange, 'CEX')
  t.equal(order.tradePath.length, 2)
  t.equal(order.receivingAddress, SOL_ADDRESS)
  t.ok(order.initialQuote > 20, 'initialQuote prices the intent')
})

t.test('bounds come from the pair swap limits; the intent is not validated against them', async (t) => {
  const { url } = await startSandbox(t)
  const limits = await call(url, `/v1/tokens/swap-limits?depositTokenId=${ETH}&settleTokenId=${SOL}`, {
    headers: TENANT,
  })
  const order = await createOrder(url)
  t.match(limits.body, { minimalAmount: order.minimalAmount, maximalAmount: order.maximalAmount })
  const zero = await createOrder(url, { intendedAmount: 0 })
  t.equal(zero.initialQuote, 0, 'zero is accepted, with initialQuote 0')
  const below = await createOrder(url, { intendedAmount: order.minimalAmount / 2 })
  t.equal(below.initialQuote, 0, 'below the minimum: initialQuote 0')
  const above = await createOrder(url, { intendedAmount: order.maximalAmount * 3 })
  t.ok(above.initialQuote > 0, 'above the maximum: accepted and quoted')
  const settleSide = await createOrder(url, { intendedAmount: 50, intendedIsDeposit: false })
  t.equal(settleSide.initialQuote, 50, 'a settle-side intent estimates that settle amount')
  t.equal(settleSide.intendedIsDeposit, false)
})

t.test('each success is a new order with a new deposit address', async (t) => {
  const { url } = await startSandbox(t)
  const a = await createOrder(url)
  const b = await createOrder(url)
  t.not(a.uuid, b.uuid)
  t.not(a.walletAddress, b.walletAddress)
  t.equal(b.id, a.id + 1)
})

t.test('deposit addresses are valid for the deposit chain', async (t) => {
  const { url } = await startSandbox(t)
  const eth = await createOrder(url)
  t.equal(getAddress(eth.walletAddress), eth.walletAddress, 'EVM: checksummed')
  const btc = await createOrder(url, { depositTokenId: BTC, intendedAmount: 0.01 })
  t.match(btc.walletAddress, /^bc1p/, 'BTC: taproot')
  t.equal(bech32m.fromWords(bech32m.decode(btc.walletAddress as `bc1${string}`).words.slice(1)).length, 32)
  const sol = await createOrder(url, {
    depositTokenId: SOL,
    settleTokenId: ETH,
    receivingAddress: getAddress(eth.walletAddress),
  })
  t.equal(base58.decode(sol.walletAddress).length, 32, 'SOL: a 32-byte base58 key')
  const trx = await createOrder(url, {
    depositTokenId: TRX,
    settleTokenId: ETH,
    receivingAddress: eth.walletAddress,
    intendedAmount: 500,
  })
  t.match(trx.walletAddress, /^T/)
  t.equal(base58check.decode(trx.walletAddress)[0], 0x41, 'TRX: base58check with version 0x41')
})

t.test(
  'receivingAddress is checked against the settle chain: "Invalid <NETWORK> address: <value>"',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const usdtTrx = tokenId(control, 'USDT', 'TRX')
    const cases: [number, unknown, string][] = [
      [
        SOL,
        '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        'Invalid SOL address: 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      ],
      [SOL, undefined, 'Invalid SOL address: undefined'],
      [ETH, SOL_ADDRESS, `Invalid ETH address: ${SOL_ADDRESS}`],
      [
        ETH,
        '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046',
        'Invalid ETH address: 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046',
      ],
      [
        BTC,
        'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx',
        'Invalid BTC address: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx',
      ],
      [
        usdtTrx,
        'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
        'Invalid TRX address: TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
      ],
      [ETH, 12345, 'Invalid ETH address: 12345'],
    ]
    for (const [settleTokenId, receivingAddress, message] of cases) {
      const res = await create(url, {
        ...valid,
        depositTokenId: settleTokenId === ETH ? SOL : ETH,
        settleTokenId,
        receivingAddress,
      })
      t.equal(res.status, 500)
      t.strictSame(res.body, serverError(message))
    }
    const good = await create(url, {
      ...valid,
      settleTokenId: BTC,
      receivingAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    })
    t.equal(good.status, 201)
    const tron = await create(url, {
      ...valid,
      settleTokenId: usdtTrx,
      receivingAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    })
    t.equal(tron.status, 201)
    t.equal(control.orders().length, 2, 'refused requests created nothing')
  },
)

t.test('unknown, inactive and deposit-disabled tokens', async (t) => {
  const { url, control } = await startSandbox(t)
  t.strictSame(
    (await create(url, { ...valid, depositTokenId: 999999 })).body,
    serverError('Invalid deposit token id provided: 999999'),
  )
  t.strictSame(
    (await create(url, { ...valid, settleTokenId: 888888 })).body,
    serverError('Invalid settle token id provided: 888888'),
  )
  const busd = tokenId(control, 'BUSD', 'ETH')
  t.strictSame(
    (
      await create(url, {
        ...valid,
        settleTokenId: busd,
        receivingAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      })
    ).body,
    serverError(`Couldn't find trade path for ${ETH} -> ${busd}`),
  )
  const ftm = tokenId(control, 'FTM', 'FTM')
  t.strictSame(
    (await create(url, { ...valid, depositTokenId: ftm })).body,
    serverError(`Couldn't find trade path for ${ftm} -> ${SOL}`),
  )
  t.equal(control.orders().length, 0)
})

t.test(
  'a missing or string-typed token id, or a mistyped amount, leaks multi-line database text',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const bodies = [
      { ...valid, depositTokenId: '2' },
      { ...valid, depositTokenId: undefined },
      { ...valid, settleTokenId: '3' },
      { ...valid, intendedAmount: '1' },
      { ...valid, intendedIsDeposit: undefined },
    ]
    for (const body of bodies) {
      const res = await create(url, body)
      t.equal(res.status, 500)
      t.match(res.body, {
        statusCode: 500,
        error: 'Internal Server Error',
        message: /prisma[\s\S]*\n[\s\S]*Argument/,
      })
    }
    t.equal(control.orders().length, 0)
  },
)

t.test('a body that is not JSON is a framework 400; no credential is a 401', async (t) => {
  const { url } = await startSandbox(t)
  const bad = await call(url, '/v1/orders/create', {
    headers: { ...TENANT, 'content-type': 'application/json' },
    raw: '{"depositTokenId":',
  })
  t.equal(bad.status, 400)
  t.match(bad.body, { statusCode: 400, error: 'Bad Request', message: /JSON/ })
  const anonymous = await create(url, valid, {})
  t.strictSame(anonymous.body, {
    message: 'Valid access token required.',
    error: 'Unauthorized',
    statusCode: 401,
  })
})

t.test(
  'a valid access token (Bearer or cookie) attributes the order; a stale one beside the key does not',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const session = await signInToSandbox(url)
    const me = await call(url, '/auth/me', { headers: { authorization: `Bearer ${session.accessToken}` } })
    const userId = (me.body as { id: string }).id
    const bearer = await createOrder(url, {}, { ...TENANT, authorization: `Bearer ${session.accessToken}` })
    t.equal(bearer.userId, userId, 'Bearer + key')
    const bearerOnly = await createOrder(url, {}, { authorization: `Bearer ${session.accessToken}` })
    t.equal(bearerOnly.userId, userId, 'Bearer alone passes')
    const cookie = await createOrder(
      url,
      {},
      { ...TENANT, cookie: cookiePair(session.res.cookies, 'access_token') },
    )
    t.equal(cookie.userId, userId, 'access_token cookie')
    control.advanceTime(15 * 60_000 + 1000)
    const stale = await createOrder(url, {}, { ...TENANT, authorization: `Bearer ${session.accessToken}` })
    t.equal(stale.userId, null, 'stale token beside a valid key: accepted, unattributed')
    const staleAlone = await create(url, valid, { authorization: `Bearer ${session.accessToken}` })
    t.equal(staleAlone.status, 401)
    const forged = await create(url, valid, {
      ...TENANT,
      authorization: `Bearer ${session.accessToken.slice(0, -2)}xx`,
    })
    t.equal(createdOrderSchema.parse(forged.body).userId, null, 'a badly signed token is no credential')
  },
)

t.test('GET /v1/orders/{uuid}: no credential, walletAddress and expanded tokens', async (t) => {
  const { url } = await startSandbox(t)
  const created = await createOrder(url)
  const res = await call(url, `/v1/orders/${created.uuid}`)
  t.equal(res.status, 200)
  const order = orderDetailsSchema.strict().parse(res.body)
  const { depositToken, settleToken, ...fields } = order
  t.strictSame(fields, created, 'same fields as at creation')
  t.equal(depositToken.id, ETH)
  t.equal(settleToken.id, SOL)
  t.equal(settleToken.blockchain.network, 'SOL')
})

t.test(
  'an unknown or malformed uuid is a 500 with exactly statusCode and message, never a 404',
  async (t) => {
    const { url } = await startSandbox(t)
    for (const id of ['6f1c2f0e-8d4b-4c3a-9f1e-2b7a5d9c0e11', 'not-a-uuid', '12345', 'create']) {
      const res = await call(url, `/v1/orders/${id}`)
      t.equal(res.status, 500)
      t.strictSame(res.body, { statusCode: 500, message: 'Internal Server Error' }, id)
    }
  },
)
