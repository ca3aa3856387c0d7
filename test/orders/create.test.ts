import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'

const CREATE = '/api/v1/orders/create'
const UPSTREAM_CREATE = 'POST /v1/orders/create'

async function setup(t: Test, env?: Record<string, string>) {
  const gw = await startGateway(t, { env })
  const p = picks(gw.sandbox.control.tokens())
  const create = (body: unknown, headers: Record<string, string> = {}) =>
    gw.app.inject({ method: 'POST', url: CREATE, payload: body as object, headers })
  return { ...gw, p, create }
}

t.test('a create returns 201 with the upstream order, sent once with the tenant key', async (t) => {
  const { create, sandbox, p } = await setup(t)
  const res = await create(orderBody(p))
  t.equal(res.statusCode, 201)
  const order = res.json()
  t.match(order, { uuid: String, walletAddress: String, status: 'AWAITING_USER_DEPOSIT', userId: null })
  t.ok(sandbox.control.order(order.uuid), 'the order exists upstream')
  const sent = sandbox.control.requestsTo(UPSTREAM_CREATE)
  t.equal(sent.length, 1)
  t.equal(sent[0]?.headers['x-tenant-api-key'], TEST_TENANT_KEY)
  t.same(sent[0]?.body, orderBody(p), 'only the validated fields are forwarded')
})

t.test('the 201 carries depositToken and settleToken from the catalog, as an order read does', async (t) => {
  const { create, app, sandbox, p } = await setup(t)
  const res = await create(orderBody(p), { 'idempotency-key': 'with-tokens' })
  t.equal(res.statusCode, 201)
  const order = res.json()
  t.same(order.depositToken, p.usdtEth, 'the deposit token, as the catalog has it')
  t.same(order.settleToken, p.eth, 'the settle token, as the catalog has it')
  const upstreamOrder = sandbox.control.order(order.uuid)
  t.same(
    { ...order, depositToken: undefined, settleToken: undefined },
    {
      ...upstreamOrder,
      depositToken: undefined,
      settleToken: undefined,
    },
    "every other field is the upstream's",
  )
  const read = (await app.inject({ url: `/api/v1/orders/${order.uuid}` })).json()
  t.same(order.depositToken, read.depositToken, 'the same object GET /api/v1/orders/:uuid carries')
  t.same(order.settleToken, read.settleToken)
  const replay = await create(orderBody(p), { 'idempotency-key': 'with-tokens' })
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.same(replay.json().depositToken, p.usdtEth, 'a replay carries them too')
})

t.test('a zero or negative intendedAmount is INVALID_AMOUNT, without an upstream call', async (t) => {
  const { create, sandbox, p } = await setup(t)
  for (const amount of [0, -1, -0.5]) {
    const problem = assertProblem(t, await create(orderBody(p, amount)), 'INVALID_AMOUNT')
    t.same(
      problem.errors,
      [{ path: 'body.intendedAmount', message: 'must be a positive number' }],
      `${amount}`,
    )
  }
  t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 0, 'no useless order was created')
  t.equal((await create(orderBody(p, 0.001))).statusCode, 201, 'any positive amount goes through')
})

t.test('malformed bodies are refused before the upstream', async (t) => {
  // More creates than the default per-minute limit: each malformed body is one request.
  const { create, app, sandbox, p } = await setup(t, {
    RATE_LIMITS: JSON.stringify({ create: { max: 100, timeWindow: 60_000 } }),
  })
  const good = orderBody(p)
  const cases: Array<[string, unknown, Array<{ path: string; message: string }>]> = [
    [
      'missing field',
      { ...good, receivingAddress: undefined },
      [{ path: 'body.receivingAddress', message: 'is required' }],
    ],
    [
      'string id',
      { ...good, depositTokenId: '12' },
      [{ path: 'body.depositTokenId', message: 'must be a positive integer' }],
    ],
    [
      'negative id',
      { ...good, settleTokenId: -3 },
      [{ path: 'body.settleTokenId', message: 'must be a positive integer' }],
    ],
    [
      'id beyond the safe integers',
      { ...good, settleTokenId: 2 ** 60 },
      [{ path: 'body.settleTokenId', message: 'must be a positive integer' }],
    ],
    [
      'id beyond the 32-bit ids the document states',
      { ...good, depositTokenId: 2 ** 31 },
      [{ path: 'body.depositTokenId', message: 'must be at most 2147483647' }],
    ],
    [
      'address beyond its documented maxLength',
      { ...good, receivingAddress: 'x'.repeat(257) },
      [{ path: 'body.receivingAddress', message: 'must be at most 256 characters' }],
    ],
    [
      'flag as text',
      { ...good, intendedIsDeposit: 'yes' },
      [{ path: 'body.intendedIsDeposit', message: 'must be true or false' }],
    ],
    [
      'amount as text',
      { ...good, intendedAmount: '5' },
      [{ path: 'body.intendedAmount', message: 'must be a number' }],
    ],
    [
      'missing amount',
      { ...good, intendedAmount: undefined },
      [{ path: 'body.intendedAmount', message: 'is required' }],
    ],
    [
      'null amount',
      { ...good, intendedAmount: null },
      [{ path: 'body.intendedAmount', message: 'must be a number' }],
    ],
    ['an array', [good], [{ path: 'body', message: 'must be a JSON object' }]],
  ]
  for (const [name, body, errors] of cases) {
    const res = await create(body)
    const problem = assertProblem(t, res, 'VALIDATION_FAILED')
    t.same(problem.errors, errors, name)
  }
  const badJson = await app.inject({
    method: 'POST',
    url: CREATE,
    payload: '{"depositTokenId":',
    headers: { 'content-type': 'application/json' },
  })
  assertProblem(t, badJson, 'VALIDATION_FAILED')
  const text = await app.inject({
    method: 'POST',
    url: CREATE,
    payload: 'hello',
    headers: { 'content-type': 'text/plain' },
  })
  assertProblem(t, text, 'UNSUPPORTED_MEDIA_TYPE')
  const big = await app.inject({
    method: 'POST',
    url: CREATE,
    payload: JSON.stringify({ ...good, receivingAddress: 'x'.repeat(200_000) }),
    headers: { 'content-type': 'application/json' },
  })
  assertProblem(t, big, 'PAYLOAD_TOO_LARGE')
  t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 0)
})

t.test('an address the upstream rejects is INVALID_ADDRESS naming the network', async (t) => {
  const { create, p } = await setup(t)
  const res = await create({ ...orderBody(p), receivingAddress: 'not-an-address' })
  const body = assertProblem(t, res, 'INVALID_ADDRESS')
  t.equal(body.network, 'ETH')
})

t.test(
  'a create whose answer is dropped is ORDER_OUTCOME_UNKNOWN, sent exactly once, and the order exists',
  async (t) => {
    const { create, sandbox, p } = await setup(t)
    sandbox.control.fault(UPSTREAM_CREATE, { kind: 'dropAfter' })
    const res = await create(orderBody(p))
    assertProblem(t, res, 'ORDER_OUTCOME_UNKNOWN', true)
    t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 1, 'never retried')
    t.equal(sandbox.control.orders().length, 1, 'the unfunded order exists upstream')
  },
)

t.test('a create that times out is ORDER_OUTCOME_UNKNOWN, sent once', async (t) => {
  const { create, sandbox, p } = await setup(t, { UPSTREAM_TIMEOUT_MS: '300' })
  await create(orderBody(p)) // warm the catalog so the deadline is spent on the create alone
  sandbox.control.clearRequests()
  sandbox.control.fault(UPSTREAM_CREATE, { kind: 'hang' })
  const res = await create(orderBody(p))
  assertProblem(t, res, 'ORDER_OUTCOME_UNKNOWN', true)
  t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 1)
})

t.test(
  'a generic upstream 500 or an HTML page on create is UPSTREAM_ERROR, not retryable, not retried',
  async (t) => {
    const { create, sandbox, p } = await setup(t)
    sandbox.control.fault(UPSTREAM_CREATE, { kind: 'error500' })
    assertProblem(t, await create(orderBody(p)), 'UPSTREAM_ERROR', false)
    sandbox.control.fault(UPSTREAM_CREATE, {
      kind: 'status',
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><body>Bad gateway</body></html>',
    })
    assertProblem(t, await create(orderBody(p)), 'UPSTREAM_ERROR', false)
    t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 2)
  },
)

t.test('a rejected tenant key is UPSTREAM_AUTH_FAILED, logged at error level without the key', async (t) => {
  const { create, sandbox, p, logs } = await setup(t, { TENANT_API_KEY: 'a-wrong-key-that-must-not-leak' })
  const res = await create(orderBody(p))
  assertProblem(t, res, 'UPSTREAM_AUTH_FAILED')
  t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 1)
  t.ok(
    logs.lines().some((l) => l.level === 50 && JSON.stringify(l).includes('UPSTREAM_AUTH_FAILED')),
    'an error-level line names the problem',
  )
  t.notMatch(logs.text(), 'a-wrong-key-that-must-not-leak')
})

t.test('Idempotency-Key', async (t) => {
  t.test('a repeat replays the stored 201 without an upstream call, with its own request id', async (t) => {
    const { create, sandbox, p } = await setup(t)
    const first = await create(orderBody(p), { 'idempotency-key': 'order-1' })
    const second = await create(orderBody(p), { 'idempotency-key': 'order-1' })
    t.equal(first.statusCode, 201)
    t.equal(second.statusCode, 201)
    t.equal(second.body, first.body, 'same order')
    t.equal(second.headers['idempotent-replayed'], 'true')
    t.not(second.headers['x-request-id'], first.headers['x-request-id'])
    t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 1)
  })

  t.test('the same key with another body is IDEMPOTENCY_KEY_REUSED', async (t) => {
    const { create, p } = await setup(t)
    await create(orderBody(p), { 'idempotency-key': 'k' })
    assertProblem(t, await create(orderBody(p, 101), { 'idempotency-key': 'k' }), 'IDEMPOTENCY_KEY_REUSED')
  })

  t.test('a repeat while the first runs is IDEMPOTENCY_IN_PROGRESS', async (t) => {
    const { create, sandbox, p } = await setup(t)
    await create(orderBody(p)) // warm the catalog
    sandbox.control.fault(UPSTREAM_CREATE, { kind: 'delay', ms: 300 })
    const sent = () => sandbox.control.requestsTo(UPSTREAM_CREATE).length
    const before = sent()
    const first = create(orderBody(p), { 'idempotency-key': 'slow' })
    await eventually('the first create at the upstream', () => sent() > before)
    const second = await create(orderBody(p), { 'idempotency-key': 'slow' })
    assertProblem(t, second, 'IDEMPOTENCY_IN_PROGRESS', true)
    t.equal((await first).statusCode, 201)
  })

  t.test(
    'a final 4xx is replayed with the repeat request id; 5xx and unknown outcomes are not stored',
    async (t) => {
      const { create, sandbox, p } = await setup(t)
      const bad = { ...orderBody(p), receivingAddress: 'nope' }
      const first = await create(bad, { 'idempotency-key': 'bad' })
      const again = await create(bad, { 'idempotency-key': 'bad' })
      assertProblem(t, again, 'INVALID_ADDRESS')
      t.equal(again.headers['idempotent-replayed'], 'true')
      t.not(again.json().requestId, first.json().requestId)
      t.equal(sandbox.control.requestsTo(UPSTREAM_CREATE).length, 1)

      sandbox.control.fault(UPSTREAM_CREATE, { kind: 'error500' })
      assertProblem(t, await create(orderBody(p), { 'idempotency-key': 'flaky' }), 'UPSTREAM_ERROR', false)
      t.equal((await create(orderBody(p), { 'idempotency-key': 'flaky' })).statusCode, 201, '5xx not stored')

      sandbox.control.fault(UPSTREAM_CREATE, { kind: 'dropAfter' })
      assertProblem(
        t,
        await create(orderBody(p), { 'idempotency-key': 'lost' }),
        'ORDER_OUTCOME_UNKNOWN',
        true,
      )
      const retry = await create(orderBody(p), { 'idempotency-key': 'lost' })
      t.equal(retry.statusCode, 201, 'the client repeat creates an order it can see')
      t.notOk(retry.headers['idempotent-replayed'])
    },
  )

  t.test('a malformed key is VALIDATION_FAILED', async (t) => {
    const { create, p } = await setup(t)
    const res = await create(orderBody(p), { 'idempotency-key': 'x'.repeat(256) })
    const body = assertProblem(t, res, 'VALIDATION_FAILED')
    t.match(body.errors, [{ path: 'header.idempotency-key' }])
  })
})
