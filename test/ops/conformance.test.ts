// Every answer the gateway gives is declared by its operation in the OpenAPI document: valid and
// invalid requests, over real HTTP, to every operation the document lists (origin refusals, rate
// limits, path parameters over the limit, upstream failures included), each answer's status,
// headers and body checked against the served document with ajv. An undeclared status, a
// required header missing, a header a client reads left undeclared, or a body off its schema fails;
// so does a problem code its operation does not declare (each status enumerates its codes).
import { createECDH, randomBytes } from 'node:crypto'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import t, { type Test } from 'tap'
import { clientGateway, walletProvider } from '../client/setup.js'
import { eventually } from '../helpers/eventually.js'
import { orderBody } from '../helpers/picks.js'
import { signedBody } from '../helpers/sign-in.js'
import { events, readRaw } from '../helpers/sse.js'
import { roomyLimits } from '../helpers/limits.js'
import { subscribed } from '../status-stream/setup.js'

// Some hundred requests, a few of them retried upstream failures.
t.setTimeout(240_000)

type Json = Record<string, unknown>
interface Media {
  schema?: Json
  'x-events'?: Record<string, { data: Json }>
}
interface Response {
  headers?: Record<string, { required?: boolean; schema: Json }>
  content?: Record<string, Media>
}
interface Operation {
  operationId: string
  responses: Record<string, Response>
}
interface Doc {
  paths: Record<string, Record<string, Operation>>
  components: Json
}

/** Headers a client reads: present on an answer, they must be declared there. */
const CLIENT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'etag',
  'x-cache-status',
  'idempotent-replayed',
  'set-cookie',
]
const LAPSE = 16 * 60_000
const UNKNOWN_ORDER = '7b0e8d3e-5f7c-4a5e-9d8b-2f3c4d5e6f70'

// Live quotes refresh every 50 ms and end after 1.5 s, so one stream shows every event it can carry.
const gw = await clientGateway(t, {
  env: { UPSTREAM_TIMEOUT_MS: '3000', QUOTE_REFRESH_MS: '50', QUOTE_STREAM_MAX_MS: '1500' },
})
// Every group at one request a minute (sign-in takes two): the second request to any limited
// operation is a 429.
const tight = await clientGateway(t, {
  env: {
    RATE_LIMITS: JSON.stringify({ ...JSON.parse(roomyLimits(1)), auth: { max: 2, timeWindow: '1 minute' } }),
  },
})
const doc = (await (await fetch(`${gw.url}/api/openapi.json`)).json()) as Doc

const ajv = new Ajv2020({ strict: false, allErrors: true })
formats.default(ajv)
ajv.addSchema({ $id: 'doc', components: doc.components })
const compiled = new Map<string, ValidateFunction>()
/** A schema of the document, its references into the document's components. */
function validator(schema: Json): ValidateFunction {
  const text = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')
  let validate = compiled.get(text)
  if (!validate) compiled.set(text, (validate = ajv.compile(JSON.parse(text) as Json)))
  return validate
}

const operations = new Map(
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'parameters' && method !== 'servers')
      .map(([method, op]) => [op.operationId, { ...op, method: method.toUpperCase(), path }] as const),
  ),
)
/** Per operation, the statuses seen. */
const seen = new Map<string, Set<number>>()
let requests = 0

interface Ask {
  method?: string
  query?: Record<string, string>
  params?: Record<string, string>
  headers?: Record<string, string>
  body?: unknown
  rawBody?: string
  /** A path of the caller's own instead of the operation's (a URL over the limit). */
  path?: string
  base?: string
}

/** The named server-sent events of a stream, read until it ends or `max` events came. */
async function readEvents(res: globalThis.Response, max: number) {
  const named = (text: string) => events(text).flatMap(({ event, data }) => (event ? [{ event, data }] : []))
  const stream = await readRaw(res)
  const text = await stream.until(`${max} events`, (text, ended) => ended || named(text).length >= max)
  stream.close()
  return named(text)
}

/**
 * Sends a request to an operation and checks the answer against the operation's declaration.
 * `events`: for a stream, how many events to read and check.
 */
async function ask(t: Test, operationId: string, ask: Ask = {}, events = 1) {
  const op = operations.get(operationId)
  if (!op) throw new Error(`no operation ${operationId} in the document`)
  const path =
    ask.path ??
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ask.params?.[name] ?? ''))
  const url = new URL(`${ask.base ?? gw.url}${path}`)
  for (const [k, v] of Object.entries(ask.query ?? {})) url.searchParams.set(k, v)
  const headers: Record<string, string> = { ...ask.headers }
  let body = ask.rawBody
  if (ask.body !== undefined) {
    body = JSON.stringify(ask.body)
    headers['content-type'] ??= 'application/json'
  }
  requests++
  const res = await fetch(url, {
    method: ask.method ?? op.method,
    headers,
    body,
  })
  const status = res.status
  const label = `${operationId} ${status}`
  seen.set(operationId, (seen.get(operationId) ?? new Set()).add(status))
  const declared = op.responses[String(status)]
  if (!declared) {
    t.fail(`${operationId} answered ${status}, which its operation does not declare`, {
      body: (await res.text()).slice(0, 300),
    })
    return { status, body: undefined as unknown }
  }
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    const value = res.headers.get(name)
    if (header.required) t.ok(value !== null, `${label}: the required header ${name}`)
    if (value !== null && header.schema.type === 'integer')
      t.match(value, /^\d+$/, `${label}: ${name} an integer`)
  }
  const names = Object.keys(declared.headers ?? {}).map((n) => n.toLowerCase())
  for (const name of CLIENT_HEADERS) {
    if (res.headers.has(name) && !names.includes(name)) t.fail(`${label}: ${name} is sent but not declared`)
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim()
  if (!declared.content) {
    t.equal(await res.text(), '', `${label}: no body, as declared`)
    return { status, body: undefined as unknown }
  }
  const media = declared.content[type]
  if (!media) {
    t.fail(`${label}: content type ${type} is not declared (${Object.keys(declared.content).join(', ')})`)
    return { status, body: undefined as unknown }
  }
  if (type === 'text/event-stream') {
    const read = await readEvents(res, events)
    t.ok(read.length > 0, `${label}: events`)
    for (const { event, data } of read) {
      const schema = media['x-events']?.[event]?.data
      if (!schema) {
        t.fail(`${label}: event ${event} is not declared`)
        continue
      }
      const parsed: unknown = JSON.parse(data)
      for (const [what, s] of [
        [`its ${event} data`, schema],
        ['the stream schema', media.schema!],
      ] as const) {
        const validate = validator(s)
        t.ok(validate(parsed), `${label}: the ${event} event matches ${what}`, { errors: validate.errors })
      }
    }
    return { status, body: read as unknown }
  }
  const text = await res.text()
  if (!type.endsWith('json')) {
    t.ok(text.length > 0, `${label}: a ${type} body`)
    return { status, body: text as unknown }
  }
  const parsed: unknown = JSON.parse(text)
  const validate = validator(media.schema!)
  t.ok(validate(parsed), `${label}: the body matches its schema`, {
    errors: validate.errors?.slice(0, 5),
    body: text.slice(0, 300),
  })
  return { status, body: parsed }
}

const FOREIGN = { origin: 'https://elsewhere.example' }
const pair = { depositTokenId: String(gw.p.usdtEth.id), settleTokenId: String(gw.p.eth.id) }
const quote = { ...pair, amount: '100', amountIsDeposit: 'true' }

/** A session token (Bearer) for a fresh wallet. */
async function session() {
  const client = gw.client()
  await client.signIn(walletProvider().provider)
  return { authorization: `Bearer ${client.sessionToken!}` }
}

t.test('the catalog', async (t) => {
  const tokens = await ask(t, 'listTokens', { query: { tradable: 'true' } })
  t.equal(tokens.status, 200)
  await ask(t, 'listTokens', { query: { tradable: 'maybe' } })
  await ask(t, 'listTokens', { headers: FOREIGN })
  const etag = (await fetch(`${gw.url}/api/v1/tokens`)).headers.get('etag')!
  t.equal((await ask(t, 'listTokens', { headers: { 'if-none-match': etag } })).status, 304)
  t.equal((await ask(t, 'listTokens', { path: `/api/v1/tokens?q=${'a'.repeat(9000)}` })).status, 414)
  t.equal((await ask(t, 'listTokens', { headers: { 'x-padding': 'a'.repeat(40_000) } })).status, 431)

  await ask(t, 'getToken', { params: { id: String(gw.p.eth.id) } })
  t.equal((await ask(t, 'getToken', { params: { id: String(gw.p.unknownId) } })).status, 404)
  t.equal((await ask(t, 'getToken', { params: { id: 'abc' } })).status, 400)
  t.equal((await ask(t, 'getToken', { params: { id: '1'.repeat(150) } })).status, 414)
  t.equal((await ask(t, 'getToken', { path: '/api/v1/tokens/%zz' })).status, 400)
  await ask(t, 'getToken', { params: { id: '1' }, headers: FOREIGN })

  await ask(t, 'listChains')
  await ask(t, 'listChains', { headers: FOREIGN })
})

t.test('pricing', async (t) => {
  t.equal((await ask(t, 'getQuote', { query: quote })).status, 200)
  t.equal((await ask(t, 'getQuote', { query: { ...quote, amount: '0' } })).status, 400)
  t.equal((await ask(t, 'getQuote', { query: { ...quote, amountIsDeposit: 'maybe' } })).status, 400)
  t.equal(
    (await ask(t, 'getQuote', { query: { ...quote, depositTokenId: String(gw.p.unknownId) } })).status,
    400,
  )
  t.equal(
    (await ask(t, 'getQuote', { query: { ...quote, settleTokenId: String(gw.p.inactive.id) } })).status,
    422,
  )
  await ask(t, 'getQuote', { query: quote, headers: FOREIGN })
  gw.control.fault('GET /v1/tokens/quote', { kind: 'error500', count: 10 })
  t.equal((await ask(t, 'getQuote', { query: { ...quote, amount: '101' } })).status, 502, 'UPSTREAM_ERROR')
  gw.control.clearFaults()

  t.equal((await ask(t, 'getSwapLimits', { query: pair })).status, 200)
  t.equal((await ask(t, 'getSwapLimits', { query: { ...pair, extra: 'forwarded' } })).status, 200)
  t.equal((await ask(t, 'getSwapLimits', { query: { depositTokenId: 'x' } })).status, 400)
  t.equal(
    (await ask(t, 'getSwapLimits', { query: { ...pair, depositTokenId: String(gw.p.depositsOff.id) } }))
      .status,
    422,
  )
  await ask(t, 'getSwapLimits', { query: pair, headers: FOREIGN })
})

t.test('orders', async (t) => {
  const created = await ask(t, 'createOrder', {
    body: orderBody(gw.p),
    headers: { 'idempotency-key': 'conf-1' },
  })
  t.equal(created.status, 201)
  const uuid = (created.body as { uuid: string }).uuid
  const replay = await ask(t, 'createOrder', {
    body: orderBody(gw.p),
    headers: { 'idempotency-key': 'conf-1' },
  })
  t.equal(replay.status, 201, 'a replay, with Idempotent-Replayed')
  t.equal(
    (await ask(t, 'createOrder', { body: orderBody(gw.p, 7), headers: { 'idempotency-key': 'conf-1' } }))
      .status,
    422,
  )
  t.equal((await ask(t, 'createOrder', { body: { ...orderBody(gw.p), intendedAmount: 0 } })).status, 400)
  t.equal(
    (await ask(t, 'createOrder', { body: { ...orderBody(gw.p), receivingAddress: 'nope' } })).status,
    400,
  )
  t.equal((await ask(t, 'createOrder', { body: { depositTokenId: '1' } })).status, 400)
  t.equal(
    (await ask(t, 'createOrder', { rawBody: 'a=1', headers: { 'content-type': 'text/plain' } })).status,
    415,
  )
  t.equal(
    (
      await ask(t, 'createOrder', {
        rawBody: '{"a":"' + 'x'.repeat(70_000) + '"}',
        headers: { 'content-type': 'application/json' },
      })
    ).status,
    413,
  )
  t.equal(
    (await ask(t, 'createOrder', { body: { ...orderBody(gw.p), settleTokenId: gw.p.inactive.id } })).status,
    422,
  )
  await ask(t, 'createOrder', { body: orderBody(gw.p), headers: FOREIGN })
  gw.control.fault('POST /v1/orders/create', { kind: 'dropAfter' })
  t.equal((await ask(t, 'createOrder', { body: orderBody(gw.p) })).status, 502, 'ORDER_OUTCOME_UNKNOWN')

  t.equal((await ask(t, 'getOrder', { params: { uuid } })).status, 200)
  t.equal((await ask(t, 'getOrder', { params: { uuid: UNKNOWN_ORDER } })).status, 404)
  t.equal((await ask(t, 'getOrder', { params: { uuid: 'not-a-uuid' } })).status, 400)
  t.equal((await ask(t, 'getOrder', { params: { uuid: 'a'.repeat(101) } })).status, 414)
  gw.control.fault('GET /v1/orders/:uuid', { kind: 'badBody', count: 10 })
  t.equal((await ask(t, 'getOrder', { params: { uuid } })).status, 502, 'UPSTREAM_BAD_RESPONSE')
  gw.control.clearFaults()

  // Web Push on the order: a browser's subscription (a local endpoint, admitted outside production).
  const subscription = {
    endpoint: 'http://127.0.0.1:9/push/conformance',
    expirationTime: null,
    keys: {
      p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  }
  t.equal((await ask(t, 'getPushPublicKey')).status, 200)
  await ask(t, 'getPushPublicKey', { headers: FOREIGN })
  t.equal((await ask(t, 'subscribeOrderPush', { params: { uuid }, body: subscription })).status, 201)
  t.equal((await ask(t, 'subscribeOrderPush', { params: { uuid }, body: { endpoint: 'nope' } })).status, 400)
  const endpoint = { endpoint: subscription.endpoint }
  t.equal((await ask(t, 'unsubscribeOrderPush', { params: { uuid }, query: endpoint })).status, 204)
  t.equal(
    (await ask(t, 'unsubscribeOrderPush', { params: { uuid: 'not-a-uuid' }, query: endpoint })).status,
    400,
  )

  t.equal((await ask(t, 'listOrders')).status, 401)
  const bearer = await session()
  t.equal((await ask(t, 'listOrders', { headers: bearer, query: { limit: '5' } })).status, 200)
  t.equal((await ask(t, 'listOrders', { headers: bearer, query: { limit: '500' } })).status, 400)
  await ask(t, 'listOrders', { headers: FOREIGN })
  t.equal((await ask(t, 'followMyOrders', { headers: bearer })).status, 200, 'the snapshot')
  t.equal((await ask(t, 'followMyOrders')).status, 401)
})

t.test('the status stream', async (t) => {
  const { uuid } = (await (
    await fetch(`${gw.url}/api/v1/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(orderBody(gw.p)),
    })
  ).json()) as { uuid: string }
  t.equal((await ask(t, 'followOrder', { params: { uuid } })).status, 200, 'the snapshot')
  const sent = () => gw.app.statusHub.stats().eventsSent
  const before = sent()
  const following = ask(t, 'followOrder', { params: { uuid } }, 3)
  // Each transition once the stream has what came before it: its snapshot, then the deposit.
  await eventually('the snapshot', () => sent() > before)
  await subscribed(gw.control, uuid)
  gw.control.deposit(uuid)
  await eventually('the deposit', () => sent() > before + 1)
  gw.control.fail(uuid)
  t.equal((await following).status, 200, 'the snapshot, then the updates to ERROR')
  // A reconnect from a stream that had the end (its id carries the gateway's mark): 204; one that
  // missed it: the end again, as a 200 stream.
  const had = await ask(t, 'followOrder', { params: { uuid }, headers: { 'last-event-id': '1.end' } })
  t.equal(had.status, 204)
  t.equal((await ask(t, 'followOrder', { params: { uuid }, headers: { 'last-event-id': '1' } })).status, 200)
  t.equal((await ask(t, 'followOrder', { params: { uuid: UNKNOWN_ORDER } })).status, 404)
  t.equal((await ask(t, 'followOrder', { params: { uuid: 'nope' } })).status, 400)
  t.equal((await ask(t, 'followOrder', { params: { uuid: 'a'.repeat(120) } })).status, 414)
  await ask(t, 'followOrder', { params: { uuid }, headers: FOREIGN })
})

t.test('the live quote', async (t) => {
  const asked = () => gw.control.requestsTo('GET /v1/tokens/quote').length
  const before = asked()
  const watching = ask(t, 'watchQuote', { query: quote }, 4)
  // The first quote is on its way: the refresh after it fails.
  await eventually('the first quote asked for', () => asked() > before)
  gw.control.fault('GET /v1/tokens/quote', { kind: 'error500' })
  const read = await watching
  t.equal(read.status, 200)
  t.same(
    (read.body as Array<{ event: string }>).map((e) => e.event),
    ['quote', 'problem', 'quote', 'end'],
    'a quote, a failed refresh, a fresh quote, the end',
  )
  t.equal(
    (await ask(t, 'watchQuote', { query: quote, headers: { 'last-event-id': 'quote-stream-ended' } })).status,
    204,
  )
  t.equal((await ask(t, 'watchQuote', { query: { ...quote, amount: '0' } })).status, 400)
  t.equal(
    (await ask(t, 'watchQuote', { query: { ...quote, depositTokenId: String(gw.p.unknownId) } })).status,
    400,
  )
  t.equal(
    (await ask(t, 'watchQuote', { query: { ...quote, settleTokenId: String(gw.p.inactive.id) } })).status,
    422,
  )
  await ask(t, 'watchQuote', { query: quote, headers: FOREIGN })
  gw.control.fault('GET /v1/tokens/quote', { kind: 'error500', count: 3 })
  t.equal((await ask(t, 'watchQuote', { query: { ...quote, amount: '102' } })).status, 502, 'UPSTREAM_ERROR')
  gw.control.clearFaults()
})

t.test('sign-in and sessions', async (t) => {
  const { account, provider } = walletProvider()
  t.equal((await ask(t, 'getChallenge')).status, 200)
  const challenge = await ask(t, 'getChallenge', { query: { address: account.address, chainId: '1' } })
  t.equal(challenge.status, 200)
  t.equal(
    (await ask(t, 'getChallenge', { query: { address: `0x${'a'.repeat(300)}`, chainId: '1' } })).status,
    400,
  )
  t.equal((await ask(t, 'getChallenge', { query: { address: account.address } })).status, 400)
  gw.control.fault('GET /auth/siwx/challenge', { kind: 'drop', count: 10 })
  t.equal((await ask(t, 'getChallenge')).status, 503, 'UPSTREAM_UNAVAILABLE')
  gw.control.clearFaults()
  await ask(t, 'getChallenge', { headers: FOREIGN })

  const { message, nonce } = challenge.body as { message: string; nonce: string }
  const { data, signature } = await signedBody(account, message)
  t.equal(
    (await ask(t, 'verifySignIn', { body: { data, message, signature: `0x${'1'.repeat(130)}` } })).status,
    401,
  )
  await ask(t, 'verifySignIn', { body: { data, message: message.replace(`Nonce: ${nonce}`, ''), signature } })
  t.equal(
    (await ask(t, 'verifySignIn', { body: { data, message: 'hello', signature } })).status,
    400,
    'NONCE_MISSING',
  )
  t.equal((await ask(t, 'verifySignIn', { body: { data } })).status, 400)
  const verified = await ask(t, 'verifySignIn', {
    body: { data, message, signature },
    headers: { 'x-session-mode': 'token' },
  })
  t.equal(verified.status, 201)
  await ask(t, 'verifySignIn', { body: { data, message, signature }, headers: FOREIGN })
  const bearer = { authorization: `Bearer ${(verified.body as { sessionToken: string }).sessionToken}` }

  t.equal((await ask(t, 'getSession')).status, 200, 'signed out')
  t.equal((await ask(t, 'getSession', { headers: bearer })).status, 200, 'signed in')
  t.equal((await ask(t, 'getMe', { headers: bearer })).status, 200)
  t.equal((await ask(t, 'getMe')).status, 401, 'AUTH_REQUIRED')
  t.equal((await ask(t, 'refreshSession')).status, 401, 'AUTH_REQUIRED')
  t.equal((await ask(t, 'refreshSession', { headers: bearer })).status, 401, 'SESSION_EXPIRED: refresh fails')
  gw.control.setRefreshWorks(true)
  t.equal((await ask(t, 'refreshSession', { headers: bearer })).status, 200, 'renewed where refresh works')
  gw.control.setRefreshWorks(false)
  t.equal((await ask(t, 'logout', { headers: bearer })).status, 204)
  t.equal((await ask(t, 'getSession', { headers: bearer })).status, 200, 'a revoked session reads signed out')
  await ask(t, 'logout', { headers: FOREIGN })
  await ask(t, 'getSession', { headers: FOREIGN })

  const lapsing = await gw.client()
  await lapsing.signIn(provider)
  gw.advance(LAPSE)
  const lapsed = { authorization: `Bearer ${lapsing.sessionToken!}` }
  t.equal((await ask(t, 'getSession', { headers: lapsed })).status, 200, 'expired: true')
  t.equal((await ask(t, 'getMe', { headers: lapsed })).status, 401, 'SESSION_EXPIRED')
  t.equal((await ask(t, 'listOrders', { headers: lapsed })).status, 401, 'SESSION_EXPIRED')
  t.equal(
    (await ask(t, 'createOrder', { body: orderBody(gw.p), headers: lapsed })).status,
    401,
    'SESSION_EXPIRED',
  )
})

t.test('operations and documentation routes', async (t) => {
  for (const id of ['getHealth', 'getReadiness', 'getOpenApiDocument', 'getErrorCodes', 'getReference']) {
    t.equal((await ask(t, id)).status, 200, id)
    t.equal((await ask(t, id, { headers: FOREIGN })).status, 403, `${id} refuses a foreign origin`)
  }
  t.equal((await ask(t, 'getHealth', { path: `/healthz?${'a'.repeat(9000)}` })).status, 414)
  const metrics = await fetch(`${gw.url}/metrics`)
  t.equal(metrics.status, 404, 'the public port has no /metrics')
  t.notOk(
    [...operations.values()].some((op) => op.path === '/metrics'),
    'and the document offers no /metrics operation to call',
  )
})

t.test('every rate-limited operation answers 429 with Retry-After once over its limit', async (t) => {
  const bearer = { authorization: `Bearer ${await tightSession()}` }
  const limited = [...operations.values()].filter((op) => op.responses['429'])
  for (const op of limited) {
    const request: Ask = { base: tight.url, headers: bearer }
    if (op.operationId === 'getQuote' || op.operationId === 'watchQuote') request.query = quote
    if (op.operationId === 'getSwapLimits') request.query = pair
    if (op.operationId === 'getToken') request.params = { id: String(gw.p.eth.id) }
    if (op.operationId === 'getOrder' || op.operationId === 'followOrder')
      request.params = { uuid: UNKNOWN_ORDER }
    if (op.operationId === 'createOrder' || op.operationId === 'verifySignIn') request.body = {}
    // The first ones count (whatever they answer), until one is over the limit.
    let status = 0
    for (let i = 0; i < 4 && status !== 429; i++) status = (await ask(t, op.operationId, request)).status
    t.equal(status, 429, `${op.operationId}: 429 over its limit`)
  }
})

/** A Bearer session on the tight gateway, signed in before its auth group's one request is spent. */
let tightToken: string | undefined
async function tightSession() {
  tightToken ??= await (async () => {
    const client = tight.client()
    await client.signIn(walletProvider().provider)
    return client.sessionToken!
  })()
  return tightToken
}

t.test('every operation of the document was called, with a success and a problem', async (t) => {
  for (const [id, statuses] of [...operations.keys()].map(
    (id) => [id, seen.get(id) ?? new Set<number>()] as const,
  )) {
    t.ok(
      [...statuses].some((s) => s < 400),
      `${id}: a success`,
    )
    t.ok(
      [...statuses].some((s) => s >= 400),
      `${id}: a problem`,
    )
  }
  t.comment(`${requests} requests over ${operations.size} operations`)
})
