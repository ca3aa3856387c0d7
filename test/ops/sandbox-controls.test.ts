// With the built-in sandbox (`npm start` without UPSTREAM_URL), its control routes are mounted under
// the gateway at /api/sandbox/…, so a page on the gateway's origin drives orders same-origin; only
// those routes, never in production, and their refusals are problem documents.
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { PUBLIC_ORIGIN, startAuthGateway } from '../auth/client.js'
import { signInThroughGateway, verifyThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { startGateway, TEST_SESSION_SECRET, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { logSink } from '../helpers/logs.js'
import { orderBody, picks } from '../helpers/picks.js'
import { assertProblem } from '../helpers/problem.js'

t.test('a page on the gateway moves an order along through /api/sandbox, as on the sandbox', async (t) => {
  const gw = await startAuthGateway(t, { builtInSandbox: true })
  const page = gw.client()
  const created = await page.post('/api/v1/orders/create', {
    body: orderBody(picks(gw.sandbox.control.tokens())),
  })
  t.equal(created.status, 201)
  const uuid: string = created.json.uuid

  const deposited = await page.post(`/api/sandbox/orders/${uuid}/deposit`, { body: { amount: 100 } })
  t.equal(deposited.status, 200)
  t.equal(deposited.json.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
  t.equal(deposited.json.depositAmount, 100)
  t.equal((await page.post(`/api/sandbox/orders/${uuid}/confirm`)).json.status, 'PROCESSING')
  t.equal((await page.post(`/api/sandbox/orders/${uuid}/complete`)).json.status, 'COMPLETED')
  t.equal((await page.get(`/api/v1/orders/${uuid}`)).json.status, 'COMPLETED', 'the public read agrees')
  t.equal((await page.get(`/api/sandbox/orders/${uuid}`)).json.uuid, uuid)

  const unfunded = await page.post('/api/v1/orders/create', {
    body: orderBody(picks(gw.sandbox.control.tokens())),
  })
  const expired = await page.post(`/api/sandbox/orders/${unfunded.json.uuid}/expire`)
  t.equal(expired.json.status, 'TIMED_OUT', 'one order expired')
  t.equal((await page.get(`/api/v1/orders/${unfunded.json.uuid}`)).json.status, 'TIMED_OUT')

  const advanced = await page.post('/api/sandbox/time/advance', { body: { ms: 1000 } })
  t.equal(advanced.status, 200)
  t.type(advanced.json.now, 'number')
  const fault = await page.post('/api/sandbox/faults', {
    body: { route: 'GET /v1/tokens/quote', kind: 'error500' },
  })
  t.equal(fault.status, 201)
  t.equal((await page.request('DELETE', '/api/sandbox/faults')).status, 204)
})

t.test("the sandbox's refusals are problem documents with the sandbox's reason", async (t) => {
  const gw = await startGateway(t, { builtInSandbox: true })
  const { uuid } = (
    await gw.app.inject({
      method: 'POST',
      url: '/api/v1/orders/create',
      payload: orderBody(picks(gw.sandbox.control.tokens())),
    })
  ).json()

  const early = await gw.app.inject({ method: 'POST', url: `/api/sandbox/orders/${uuid}/complete` })
  const body = assertProblem(t, early, 'VALIDATION_FAILED')
  t.match(body.detail, /Cannot complete order .*AWAITING_USER_DEPOSIT/)
  const bad = await gw.app.inject({ method: 'POST', url: '/api/sandbox/time/advance', payload: { ms: -1 } })
  assertProblem(t, bad, 'VALIDATION_FAILED')
  const unknown = await gw.app.inject({
    method: 'POST',
    url: '/api/sandbox/orders/00000000-0000-4000-8000-000000000000/confirm',
  })
  t.match(assertProblem(t, unknown, 'NOT_FOUND').detail, /Unknown order/)
})

t.test(
  'only the control routes are mounted: not the request log, token minting or spec routes',
  async (t) => {
    const gw = await startGateway(t, { builtInSandbox: true })
    for (const [method, url] of [
      ['GET', '/api/sandbox/requests'],
      ['DELETE', '/api/sandbox/requests'],
      ['POST', '/api/sandbox/auth/access-token'],
      ['GET', '/api/sandbox/v1/tokens'],
      ['POST', '/api/sandbox/auth/siwx/verify'],
      ['GET', '/api/sandbox/orders/x/../../requests'],
      ['GET', '/api/sandbox/orders/x%2F..%2F..%2Frequests'],
    ] as const) {
      const res = await gw.app.inject({ method, url, payload: method === 'POST' ? {} : undefined })
      t.not(res.statusCode, 200, `${method} ${url}`)
      t.match(String(res.headers['content-type']), /^application\/problem\+json/, `${method} ${url}`)
      t.notMatch(res.body, new RegExp(TEST_TENANT_KEY), `${method} ${url}: never the tenant key`)
    }
    const docs = (await gw.app.inject({ url: '/api/openapi.json' })).json() as { paths: object }
    t.notOk(
      Object.keys(docs.paths).some((p) => p.includes('/sandbox')),
      'not in the public API document',
    )
  },
)

t.test('the client cookie, Authorization, Origin and Referer stay at the gateway', async (t) => {
  const seen: IncomingHttpHeaders[] = []
  const fake = createServer((req, res) => {
    seen.push(req.headers)
    res.setHeader('content-type', 'application/json')
    res.end('[]')
  })
  fake.listen(0, '127.0.0.1')
  await once(fake, 'listening')
  t.teardown(() => fake.close())
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`
  const gw = await startGateway(t, { deps: { sandbox: { url, lapsed: () => false } } })
  const res = await gw.app.inject({
    url: '/api/sandbox/orders',
    headers: {
      cookie: 'session=secret-seal',
      authorization: 'Bearer secret-token',
      origin: PUBLIC_ORIGIN,
      referer: `${PUBLIC_ORIGIN}/orders/x`,
    },
  })
  t.equal(res.statusCode, 200)
  t.equal(seen.length, 1)
  t.match(seen[0], { host: new URL(url).host })
  for (const header of ['cookie', 'authorization', 'origin', 'referer']) t.notOk(seen[0]?.[header], header)
})

t.test('never in production, and not when an upstream is configured', async (t) => {
  const gw = await startGateway(t)
  assertProblem(t, await gw.app.inject({ url: '/api/sandbox/orders' }), 'NOT_FOUND')

  const logs = logSink()
  const config = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_ORIGIN: 'https://app.example',
    UPSTREAM_URL: gw.sandbox.url,
    TENANT_API_KEY: TEST_TENANT_KEY,
    SESSION_SECRET: TEST_SESSION_SECRET,
    METRICS_PORT: '0',
  })
  const app = await buildApp(config, {
    logStream: logs.stream,
    sandbox: { url: gw.sandbox.url, lapsed: () => true },
  })
  t.teardown(() => app.close())
  assertProblem(t, await app.inject({ url: '/api/sandbox/orders' }), 'NOT_FOUND')
})

t.test(
  'with the built-in sandbox, create allows 120 a minute for a developer clicking through',
  async (t) => {
    const gw = await startAuthGateway(t, { builtInSandbox: true })
    const res = await gw.client().post('/api/v1/orders/create', {
      body: orderBody(picks(gw.sandbox.control.tokens())),
    })
    t.equal(res.status, 201)
    t.equal(res.headers.get('x-ratelimit-limit'), '120')
  },
)

t.test('POST /api/sandbox/sessions/lapse makes current sessions lapse at once, everywhere', async (t) => {
  const gw = await startAuthGateway(t, { builtInSandbox: true })
  const page = gw.client()
  const wallet = newWallet()
  t.equal((await signInThroughGateway(page, wallet)).verify.status, 201)
  t.equal((await page.get('/api/auth/session')).json.signedIn, true)

  t.equal((await page.post('/api/sandbox/sessions/lapse')).status, 204)

  const session = await page.get('/api/auth/session')
  t.same(session.json, { signedIn: false, expired: true, address: wallet.address, chainId: '1' })
  const p = picks(gw.sandbox.control.tokens())
  const creates = gw.sandbox.control.requestsTo('POST /v1/orders/create').length
  const create = await page.post('/api/v1/orders/create', { body: orderBody(p) })
  t.equal(create.status, 401)
  t.equal(create.json.code, 'SESSION_EXPIRED')
  t.match(
    create.json.challenge.message,
    new RegExp(`^http://localhost:3000 wants you to sign in[^]*${wallet.address}`),
  )
  t.equal(gw.sandbox.control.requestsTo('POST /v1/orders/create').length, creates, 'no unattributed order')
  t.equal((await page.get('/api/auth/me')).json.code, 'SESSION_EXPIRED')
  t.equal((await page.get('/api/v1/orders')).json.code, 'SESSION_EXPIRED')

  // The re-sign path: one signature of the challenge's message, and the user is back.
  const { verify } = await verifyThroughGateway(page, wallet, create.json.challenge.message)
  t.equal(verify.status, 201)
  t.equal((await page.get('/api/auth/session')).json.signedIn, true)
  const again = await page.post('/api/v1/orders/create', { body: orderBody(p) })
  t.equal(again.status, 201)
  t.equal(again.json.userId, verify.json.userId, 'the order is attributed again')
})
