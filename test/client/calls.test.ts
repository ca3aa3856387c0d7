// Every catalog, pricing and order method of the typed client, over real HTTP, and the problems it
// rejects with: the gateway's own documents member for member, and failures that bring none.
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { createGatewayClient } from 'swap-gateway-client'
import { ETH_ADDRESS, orderBody } from '../helpers/picks.js'
import { clientGateway, rejection } from './setup.js'

t.test('the catalog methods resolve to the typed bodies, filters included', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client()
  const all = await client.listTokens()
  t.equal(all.length, gw.control.tokens().length, 'the whole catalog')
  const usdt = await client.listTokens({ symbol: 'usdt', network: 'ETH', tradable: true })
  t.ok(usdt.length > 0)
  t.ok(usdt.every((tok) => tok.symbol === 'USDT' && tok.blockchain.network === 'ETH'))
  const token = await client.getToken(gw.p.usdtEth.id)
  t.same(token, gw.p.usdtEth, 'one token by id')
  const chains = await client.listChains()
  t.ok(chains.some((c) => c.id === gw.p.usdtEth.blockchain.id && c.network === 'ETH'))
})

t.test('quote, swap limits, create and read resolve to the typed bodies', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client()
  const pair = { depositTokenId: gw.p.usdtEth.id, settleTokenId: gw.p.eth.id }
  const quote = await client.getQuote({ ...pair, amount: 100, amountIsDeposit: true })
  t.ok(quote.settleAmount > 0 && quote.exchangeRate > 0)
  t.match(gw.control.requestsTo('GET /v1/tokens/quote')[0]?.url, /amount=100&/, 'numbers sent as text')
  const limits = await client.getSwapLimits(pair)
  t.type(limits, 'object')

  const created = await client.createOrder(orderBody(gw.p), { idempotencyKey: 'client-create-1' })
  t.equal(created.status, 'AWAITING_USER_DEPOSIT')
  t.equal(created.depositTokenId, gw.p.usdtEth.id)
  const again = await client.createOrder(orderBody(gw.p), { idempotencyKey: 'client-create-1' })
  t.equal(again.uuid, created.uuid, 'the same key replays the same order')
  t.equal(gw.control.requestsTo('POST /v1/orders/create').length, 1)

  const read = await client.getOrder(created.uuid)
  t.equal(read.uuid, created.uuid)
  t.equal(read.receivingAddress, ETH_ADDRESS)
})

t.test('a problem document rejects as a GatewayProblem carrying its members', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client()
  const pair = { depositTokenId: gw.p.usdtEth.id, settleTokenId: gw.p.eth.id }

  const invalid = await rejection(
    client.getQuote({ ...pair, amount: 'lots', amountIsDeposit: 'maybe' as never }),
  )
  t.ok(invalid instanceof Error, 'an Error')
  t.equal(invalid.name, 'GatewayProblem')
  t.equal(invalid.status, 400)
  t.match(invalid.code, /^(VALIDATION_FAILED|INVALID_AMOUNT)$/)
  t.equal(invalid.retryable, false)
  t.type(invalid.requestId, 'string')
  t.ok(invalid.requestId.length > 0)
  t.equal(invalid.message, invalid.detail)
  t.ok(
    invalid.errors?.some((e) => e.path === 'query.amountIsDeposit'),
    'errors, one per field',
  )

  const body = { ...orderBody(gw.p), intendedIsDeposit: 'yes' as unknown as boolean }
  const validation = await rejection(client.createOrder(body))
  t.equal(validation.code, 'VALIDATION_FAILED')
  t.same(validation.errors, [{ path: 'body.intendedIsDeposit', message: 'must be true or false' }])

  const unknown = await rejection(
    client.getQuote({ ...pair, settleTokenId: gw.p.unknownId, amount: 1, amountIsDeposit: true }),
  )
  t.equal(unknown.code, 'UNKNOWN_TOKEN')
  t.equal(unknown.side, 'settle')
  t.equal(unknown.tokenId, gw.p.unknownId)

  const missing = await rejection(client.getOrder('7b0e8d3e-5f7c-4a5e-9d8b-2f3c4d5e6f70'))
  t.equal(missing.code, 'ORDER_NOT_FOUND')
  t.equal(missing.status, 404)
  t.equal((await rejection(client.getOrder('not-a-uuid/../x'))).code, 'INVALID_ORDER_ID')
  t.equal((await rejection(client.getToken(gw.p.unknownId))).code, 'TOKEN_NOT_FOUND')
})

t.test('RATE_LIMITED rejects with retryAfter in seconds', async (t) => {
  const gw = await clientGateway(t, {
    env: { RATE_LIMITS: JSON.stringify({ pricing: { max: 1, timeWindow: '1 minute' } }) },
  })
  const client = gw.client()
  const params = {
    depositTokenId: gw.p.usdtEth.id,
    settleTokenId: gw.p.eth.id,
    amount: 5,
    amountIsDeposit: true,
  }
  await client.getQuote(params)
  const limited = await rejection(client.getQuote(params))
  t.equal(limited.code, 'RATE_LIMITED')
  t.equal(limited.status, 429)
  t.equal(limited.retryable, true)
  t.ok(Number.isInteger(limited.retryAfter) && limited.retryAfter! > 0 && limited.retryAfter! <= 60)
})

t.test('no answer at all rejects as NETWORK_ERROR, retryable, with the cause kept', async (t) => {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  const client = createGatewayClient({ baseUrl: `http://127.0.0.1:${port}` })
  const problem = await rejection(client.listChains())
  t.equal(problem.code, 'NETWORK_ERROR')
  t.equal(problem.status, 0)
  t.equal(problem.retryable, true)
  t.equal(problem.requestId, '')
  t.ok(problem.cause instanceof Error, 'the fetch failure as cause')
})

t.test("a proxy's error page rejects as UNEXPECTED_RESPONSE with its status", async (t) => {
  const server = createServer((req, res) => {
    if (req.url?.includes('chains'))
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>')
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a login page</html>')
  })
  t.teardown(() => server.close())
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const client = createGatewayClient({ baseUrl: `http://127.0.0.1:${port}` })
  const proxied = await rejection(client.listChains())
  t.equal(proxied.code, 'UNEXPECTED_RESPONSE')
  t.equal(proxied.status, 502)
  t.equal(proxied.retryable, true, 'a 5xx from in between may pass')
  const notJson = await rejection(client.listTokens())
  t.equal(notJson.code, 'UNEXPECTED_RESPONSE')
  t.equal(notJson.status, 200)
  t.equal(notJson.retryable, false)
})
