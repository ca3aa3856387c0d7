// The control API over HTTP under /__sandbox/, for a sandbox running as its own process.
import t from 'tap'
import { z } from 'zod'
import { orderDetailsSchema, tokenSchema } from '../../src/sandbox/resources.js'
import { startSandbox } from '../helpers/sandbox.js'
import { signInToSandbox } from '../helpers/sign-in.js'
import { readRaw } from '../helpers/sse.js'
import { call, cookiePair, createOrder, TENANT } from './http.js'

const errorSchema = z.object({ error: z.string() }).strict()
const unauthorized = (message: string) => ({ message, error: 'Unauthorized', statusCode: 401 })

t.test(
  'lifecycle routes move the order and answer it; 404 unknown, 409 not allowed, 400 bad input',
  async (t) => {
    const { url } = await startSandbox(t)
    const order = await createOrder(url)
    const post = (action: string, json?: unknown) =>
      call(url, `/__sandbox/orders/${order.uuid}/${action}`, { method: 'POST', json })
    const deposited = await post('deposit', { amount: 1.5, txHash: '0xfeed' })
    t.equal(deposited.status, 200)
    t.match(orderDetailsSchema.parse(deposited.body), {
      status: 'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
      depositAmount: 1.5,
      senderDepositTx: '0xfeed',
    })
    const early = await post('complete')
    t.equal(early.status, 409)
    t.match(errorSchema.parse(early.body).error, /Cannot complete/)
    t.equal((await post('confirm')).status, 200)
    t.equal((await post('progress', { settleAmount: 'lots' })).status, 400)
    t.match((await post('progress', { settleAmount: 3 })).body, { settleAmount: 3, status: 'PROCESSING' })
    t.match((await post('complete', { settleAmount: 30 })).body, { settleAmount: 30, status: 'COMPLETED' })
    t.equal((await post('fail')).status, 409)
    const unknown = await call(url, '/__sandbox/orders/00000000-0000-4000-8000-000000000000/confirm', {
      method: 'POST',
    })
    t.equal(unknown.status, 404)
    const other = await createOrder(url)
    t.match((await call(url, `/__sandbox/orders/${other.uuid}/fail`, { method: 'POST' })).body, {
      status: 'ERROR',
    })
    const list = z.array(orderDetailsSchema).parse((await call(url, '/__sandbox/orders')).body)
    t.same(
      list.map((o) => o.status),
      ['COMPLETED', 'ERROR'],
    )
    t.match((await call(url, `/__sandbox/orders/${order.uuid}`)).body, { uuid: order.uuid })
    t.equal((await call(url, '/__sandbox/nothing-here')).status, 404)
  },
)

t.test('time advance expires orders and answers the sandbox clock', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url)
  const before = Date.now()
  const res = await call(url, '/__sandbox/time/advance', { json: { ms: 31 * 60_000 } })
  t.equal(res.status, 200)
  const { now } = z.object({ now: z.number() }).strict().parse(res.body)
  t.ok(now >= before + 31 * 60_000 && now <= control.now(), 'the clock moved 31 minutes ahead')
  t.equal(control.order(order.uuid)?.status, 'TIMED_OUT')
  t.equal((await call(url, '/__sandbox/time/advance', { json: { ms: -5 } })).status, 400)
})

t.test('faults and the request log over HTTP', async (t) => {
  const { url } = await startSandbox(t)
  const queued = await call(url, '/__sandbox/faults', {
    json: { route: 'GET /v1/tokens', kind: 'status', status: 418, count: 2 },
  })
  t.equal(queued.status, 201)
  t.equal((await call(url, '/v1/tokens')).status, 418)
  t.equal((await call(url, '/__sandbox/faults', { method: 'DELETE' })).status, 204)
  t.equal((await call(url, '/v1/tokens')).status, 200)
  t.equal(
    (await call(url, '/__sandbox/faults', { json: { route: 'GET /nowhere', kind: 'hang' } })).status,
    400,
  )
  t.equal(
    (await call(url, '/__sandbox/faults', { json: { route: 'GET /v1/tokens', kind: 'explode' } })).status,
    400,
  )
  const log = await call(url, '/__sandbox/requests')
  t.match(log.body, [{ route: 'GET /v1/tokens' }, { route: 'GET /v1/tokens' }])
  t.equal((await call(url, '/__sandbox/requests', { method: 'DELETE' })).status, 204)
  t.same((await call(url, '/__sandbox/requests')).body, [])
})

t.test('catalog edits over HTTP', async (t) => {
  const { url } = await startSandbox(t)
  const added = await call(url, '/__sandbox/tokens', {
    json: { name: 'Test Coin', symbol: 'TST', blockchainId: 3, decimals: 6 },
  })
  t.equal(added.status, 201)
  const token = tokenSchema.parse(added.body)
  t.equal(token.blockchain.network, 'SOL')
  t.equal((await call(url, '/__sandbox/tokens', { json: { symbol: 'X' } })).status, 400)
  const patched = await call(url, `/__sandbox/tokens/${token.id}`, {
    method: 'PATCH',
    json: { active: false },
  })
  t.match(patched.body, { id: token.id, active: false })
  t.equal(
    (await call(url, '/__sandbox/tokens/999999', { method: 'PATCH', json: { active: false } })).status,
    404,
  )
  const chain = await call(url, '/__sandbox/chains/2', { method: 'PATCH', json: { depositsActive: false } })
  t.match(chain.body, { id: 2, network: 'ETH', depositsActive: false })
  const quote = await call(
    url,
    '/v1/tokens/quote?depositTokenId=2&settleTokenId=3&amount=1&amountIsDeposit=true',
    { headers: TENANT },
  )
  t.match(quote.body, { message: "Couldn't find trade path for 2 -> 3" })
})

t.test('streams over HTTP: count and close', async (t) => {
  const { url } = await startSandbox(t)
  const order = await createOrder(url)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  await stream.until('the opening empty line', (text) => text === '\n')
  t.same((await call(url, `/__sandbox/streams?uuid=${order.uuid}`)).body, { open: 1 })
  t.same((await call(url, '/__sandbox/streams/close', { json: { uuid: order.uuid } })).body, { closed: 1 })
  await stream.ended
  t.same((await call(url, '/__sandbox/streams')).body, { open: 0 })
})

t.test('auth switches over HTTP: refresh success and access tokens for tests', async (t) => {
  const { url } = await startSandbox(t)
  const session = await signInToSandbox(url)
  t.same((await call(url, '/__sandbox/auth/refresh-works', { method: 'PUT', json: { works: true } })).body, {
    refreshWorks: true,
  })
  const refreshed = await call(url, '/auth/refresh', {
    method: 'POST',
    headers: { cookie: cookiePair(session.res.cookies, 'refresh_token') },
  })
  t.equal(refreshed.status, 200)
  const issued = await call(url, '/__sandbox/auth/access-token', {
    json: { address: session.wallet.address, chainId: 1 },
  })
  const { accessToken } = z.object({ accessToken: z.string() }).parse(issued.body)
  const me = await call(url, '/auth/me', { headers: { authorization: `Bearer ${accessToken}` } })
  t.match(me.body, { address: session.wallet.address, chainId: '1' })
  t.equal(
    (await call(url, '/__sandbox/auth/access-token', { json: { address: 'nope', chainId: '1' } })).status,
    400,
  )
})

t.test(
  'POST /__sandbox/sessions/lapse: tokens issued before it are refused like expired ones, later ones work',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const before = await signInToSandbox(url)
    const me = (token: string) => call(url, '/auth/me', { headers: { authorization: `Bearer ${token}` } })
    t.equal((await me(before.accessToken)).status, 200)
    t.ok(control.isAccessTokenLive(before.accessToken))

    const lapse = await call(url, '/__sandbox/sessions/lapse', { method: 'POST' })
    t.equal(lapse.status, 204)
    const refused = await me(before.accessToken)
    t.equal(refused.status, 401, '/auth/me answers as for an expired token')
    t.strictSame(refused.body, unauthorized('Access token not found in cookies or authorization header.'))
    t.notOk(control.isAccessTokenLive(before.accessToken))
    const unattributed = await createOrder(
      url,
      {},
      { ...TENANT, authorization: `Bearer ${before.accessToken}` },
    )
    t.equal(unattributed.userId, null, 'beside the tenant key a lapsed token is ignored, as upstream')

    const after = await signInToSandbox(url, before.wallet)
    t.equal((await me(after.accessToken)).status, 200, 'signing in again gives a working token')
    t.ok(control.isAccessTokenLive(after.accessToken))
    control.advanceTime(15 * 60_000)
    t.notOk(control.isAccessTokenLive(after.accessToken), 'a token past its exp is not live either')
    t.notOk(control.isAccessTokenLive('not.a.token'))
  },
)

t.test('expire moves one unfunded order to TIMED_OUT now; the clock and other orders stay', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url)
  const other = await createOrder(url)
  const clockBefore = control.now()
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  t.teardown(() => stream.close())
  const expired = await call(url, `/__sandbox/orders/${order.uuid}/expire`, { method: 'POST' })
  t.equal(expired.status, 200)
  const body = orderDetailsSchema.parse(expired.body)
  t.equal(body.status, 'TIMED_OUT')
  t.ok(Date.parse(body.timeout) <= control.now(), 'its deposit window ends now')
  t.ok(control.now() - clockBefore < 60_000, 'the clock did not jump')
  t.equal(control.order(other.uuid)?.status, 'AWAITING_USER_DEPOSIT', 'the other order is untouched')
  t.equal(control.order(other.uuid)?.timeout, other.timeout)
  await stream.until('the TIMED_OUT event', (text) => text.includes('"status":"TIMED_OUT"'), 10_000)
  t.pass('the stream reports it')
  const again = await call(url, `/__sandbox/orders/${order.uuid}/expire`, { method: 'POST' })
  t.equal(again.status, 409, 'only an order awaiting its deposit expires')
})
