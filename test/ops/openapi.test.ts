import { validate } from '@readme/openapi-parser'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import t from 'tap'
import { codeSlug, ERROR_CODES, type ErrorCode } from '../../src/errors.js'
import { buildUnready, startGateway } from '../helpers/gateway.js'

/** docs/api.md's routes and docs/client.md, as OpenAPI operations: method, path, operationId. */
const OPERATIONS = {
  'get /api/v1/tokens': 'listTokens',
  'get /api/v1/tokens/{id}': 'getToken',
  'get /api/v1/chains': 'listChains',
  'get /api/v1/tokens/swap-limits': 'getSwapLimits',
  'get /api/v1/tokens/quote': 'getQuote',
  'get /api/v1/tokens/quote/stream': 'watchQuote',
  'post /api/v1/orders/create': 'createOrder',
  'get /api/v1/orders/{uuid}': 'getOrder',
  'get /api/v1/orders': 'listOrders',
  'get /api/orders/{uuid}/status-stream': 'followOrder',
  'get /api/v1/orders/stream': 'followMyOrders',
  'get /api/v1/push/public-key': 'getPushPublicKey',
  'post /api/v1/orders/{uuid}/push-subscriptions': 'subscribeOrderPush',
  'delete /api/v1/orders/{uuid}/push-subscriptions': 'unsubscribeOrderPush',
  'get /api/auth/siwx/challenge': 'getChallenge',
  'post /api/auth/siwx/verify': 'verifySignIn',
  'post /api/auth/refresh': 'refreshSession',
  'get /api/auth/me': 'getMe',
  'get /api/auth/session': 'getSession',
  'post /api/auth/logout': 'logout',
  'get /healthz': 'getHealth',
  'get /readyz': 'getReadiness',
  'get /api/openapi.json': 'getOpenApiDocument',
  'get /api/docs': 'getReference',
  'get /api/docs/errors': 'getErrorCodes',
}
const SCHEMAS = [
  'Token',
  'Blockchain',
  'Order',
  'OrderCreated',
  'Quote',
  'SwapLimits',
  'OrderHistory',
  'Session',
  'SignInResult',
  'Challenge',
  'Problem',
  'StatusUpdate',
  'Snapshot',
  'LiveQuote',
  'LiveQuoteProblem',
  'LiveQuoteEnd',
  'OrderStatus',
  'OrderFields',
  'OrderHistoryItem',
  'TradePathLeg',
  'Me',
  'CreateOrderBody',
  'VerifySignInBody',
]
const CODES = Object.keys(ERROR_CODES) as ErrorCode[]

type Schema = { type?: string; $ref?: string; enum?: string[]; properties?: Record<string, Schema> } & Record<
  string,
  unknown
>
type Operation = {
  operationId?: string
  requestBody?: { content: Record<string, { schema: Schema }> }
  security?: Array<Record<string, string[]>>
  parameters?: Array<{ name: string; in: string; schema: Schema }>
  responses: Record<
    string,
    {
      'x-error-codes'?: string[]
      headers?: Record<string, { required?: boolean; schema: Schema }>
      content?: Record<
        string,
        { schema: Schema; examples?: Record<string, unknown>; 'x-events'?: Record<string, { data: Schema }> }
      >
    }
  >
}
type Doc = {
  openapi: string
  servers: Array<{ url: string }>
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<string, Schema>
    examples: Record<string, { summary: string; description: string; value: { type: string } }>
    securitySchemes: Record<string, Record<string, string>>
  }
}

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => m !== 'servers')
      .map(([method, op]) => ({ route: `${method} ${path}`, op })),
  )

/** One gateway for the tests that only read: each would build the same document. */
const { app } = await startGateway(t)
const served = await app.inject({ url: '/api/openapi.json' })
const doc = served.json() as Doc

t.test('the document is served br or gzip as the client accepts, with Vary and a strong ETag', async (t) => {
  const identity = served.rawPayload
  t.notOk(served.headers['content-encoding'], 'uncompressed to a client that asks for no coding')
  for (const [coding, decode] of [
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const) {
    const res = await app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': `${coding}` } })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['content-encoding'], coding)
    t.match(res.headers.vary, /Accept-Encoding/)
    t.ok(
      res.rawPayload.length < identity.length / 4,
      `${coding}: ${res.rawPayload.length} of ${identity.length} bytes`,
    )
    t.same(decode(res.rawPayload), identity, `${coding}: the same document`)
    const etag = String(res.headers.etag)
    t.match(etag, /^"[^"]+"$/, 'a strong ETag')
    t.not(etag, served.headers.etag, 'one per coding')
    const again = await app.inject({
      url: '/api/openapi.json',
      headers: { 'accept-encoding': coding, 'if-none-match': etag },
    })
    t.equal(again.statusCode, 304, `${coding}: a current ETag is answered 304`)
  }
})

t.test(
  'the OpenAPI document is valid OpenAPI 3.1 with one operationId per route of the contract',
  async (t) => {
    t.equal(served.statusCode, 200)
    t.match(served.headers['content-type'], /^application\/json/)
    t.equal(doc.openapi, '3.1.0')
    const result = await validate(structuredClone(doc) as never)
    t.ok(result.valid, 'a maintained validator accepts it')
    if (!result.valid) t.comment(JSON.stringify(result.errors, null, 1).slice(0, 4000))

    const listed = Object.fromEntries(operations(doc).map(({ route, op }) => [route, op.operationId]))
    t.same(listed, OPERATIONS, 'exactly these operations, named as the typed client names its methods')
    for (const name of SCHEMAS) t.ok(doc.components.schemas[name], `components.schemas.${name}`)
  },
)

t.test('each operation answers what its route declares: named bodies and its problem codes', async (t) => {
  const op = (path: string, method = 'get') => doc.paths[path]![method]!
  const body = (o: Operation, status: string, type = 'application/json') =>
    o.responses[status]?.content?.[type]?.schema
  const codes = (o: Operation) => Object.values(o.responses).flatMap((r) => r['x-error-codes'] ?? [])

  t.same(body(op('/api/v1/tokens'), '200'), {
    type: 'array',
    items: { $ref: '#/components/schemas/Token' },
    maxItems: 100_000,
  })
  t.same(body(op('/api/v1/tokens/quote'), '200'), { $ref: '#/components/schemas/Quote' })
  t.same(body(op('/api/v1/orders/create', 'post'), '201'), { $ref: '#/components/schemas/OrderCreated' })
  t.same(body(op('/api/v1/orders/{uuid}'), '200'), { $ref: '#/components/schemas/Order' })
  t.same(body(op('/api/v1/orders'), '200'), { $ref: '#/components/schemas/OrderHistory' })
  t.same(body(op('/api/auth/siwx/verify', 'post'), '201'), { $ref: '#/components/schemas/SignInResult' })
  t.same(body(op('/api/auth/session'), '200'), { $ref: '#/components/schemas/Session' })
  t.same(body(op('/api/auth/siwx/challenge'), '200'), { $ref: '#/components/schemas/Challenge' })
  t.ok(op('/api/v1/tokens').responses['304'], 'the catalog answers 304 to a current ETag')
  t.ok(op('/api/orders/{uuid}/status-stream').responses['204'], 'a terminal reconnect is 204')

  const quote = op('/api/v1/tokens/quote')
  for (const code of [
    'INVALID_AMOUNT',
    'UNKNOWN_TOKEN',
    'PAIR_UNAVAILABLE',
    'NO_QUOTE',
    'RATE_LIMITED',
    'UPSTREAM_TIMEOUT',
  ]) {
    t.ok(codes(quote).includes(code), `quote lists ${code}`)
  }
  const create = op('/api/v1/orders/create', 'post')
  for (const code of [
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
    'ORDER_OUTCOME_UNKNOWN',
    'INVALID_ADDRESS',
  ]) {
    t.ok(codes(create).includes(code), `create lists ${code}`)
  }
  t.same(
    codes(op('/healthz')).sort(),
    [
      'HEADERS_TOO_LARGE',
      'INTERNAL',
      'ORIGIN_NOT_ALLOWED',
      'REQUEST_TIMEOUT',
      'SERVICE_UNAVAILABLE',
      'URI_TOO_LONG',
    ],
    'health answers only what any route can (the origin refusal first), and is never rate-limited',
  )
  t.notOk(op('/healthz').responses['429'], 'no 429 where nothing is limited')
  t.same(
    quote.responses['400']!.content!['application/problem+json']!.schema,
    {
      allOf: [
        { $ref: '#/components/schemas/Problem' },
        {
          type: 'object',
          properties: { code: { enum: ['VALIDATION_FAILED', 'UNKNOWN_TOKEN', 'INVALID_AMOUNT'] } },
          required: ['code'],
        },
      ],
    },
    'each problem status narrows `code` to the codes the operation sends with it',
  )
  t.match(
    op('/api/v1/tokens/{id}').responses['414'],
    { 'x-error-codes': ['URI_TOO_LONG'] },
    'a path parameter over the limit',
  )
  t.match(op('/api/v1/tokens/quote').responses['429']!, {
    headers: {
      'Retry-After': { required: true, schema: { type: 'integer', format: 'int32', minimum: 0 } },
      'X-RateLimit-Limit': { required: true },
      'X-RateLimit-Remaining': { required: true },
      'X-RateLimit-Reset': { required: true },
      'X-Request-Id': { required: true, schema: { maxLength: 128 } },
    },
  })
  t.match(quote.responses['200']!, { headers: { 'X-RateLimit-Remaining': { required: true } } })
  t.notOk(
    quote.responses['403']!.headers!['X-RateLimit-Limit']?.required,
    'optional on a problem: the origin refusal comes before the limiter',
  )
  t.same(
    op('/api/v1/orders/create', 'post').requestBody?.content['application/json']?.schema,
    { $ref: '#/components/schemas/CreateOrderBody' },
    'request bodies are named',
  )
  t.same(
    Object.keys(quote.responses['400']!.content!['application/problem+json']!.examples!).sort(),
    ['INVALID_AMOUNT', 'UNKNOWN_TOKEN', 'VALIDATION_FAILED'],
    'each problem answer has an example per code',
  )
  for (const code of CODES.filter((c) => c !== 'NOT_FOUND')) {
    const example = doc.components.examples[code]
    t.equal(example?.summary, ERROR_CODES[code].title, `the catalogue has ${code}`)
    t.match(example?.value.type, new RegExp(`^http://localhost:3000/api/docs/errors#${codeSlug(code)}$`))
  }
})

t.test('parameters have their wire types, not the text they arrive as', async (t) => {
  const params = (path: string) =>
    Object.fromEntries((doc.paths[path]!.get!.parameters ?? []).map((p) => [`${p.in}:${p.name}`, p.schema]))
  // The catalog's ids, bounded as validation bounds them.
  const ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647, format: 'int32' }
  t.same(params('/api/v1/tokens/quote'), {
    'query:depositTokenId': ID,
    'query:settleTokenId': ID,
    'query:amount': { type: 'number', exclusiveMinimum: 0 },
    'query:amountIsDeposit': { type: 'boolean' },
  })
  t.match(params('/api/v1/tokens/swap-limits'), { 'query:depositTokenId': { type: 'integer' } })
  t.same(params('/api/v1/tokens/{id}'), { 'path:id': ID })
  t.same(params('/api/v1/tokens')['query:tradable'], { type: 'boolean' })
  t.same(params('/api/v1/orders'), {
    'query:current': { type: 'integer', minimum: 1, maximum: 999_999_999, format: 'int32' },
    'query:limit': { type: 'integer', minimum: 1, maximum: 100, format: 'int32' },
  })
  t.same(params('/api/v1/orders/{uuid}'), {
    'path:uuid': { type: 'string', format: 'uuid', minLength: 36, maxLength: 36 },
  })
})

t.test(
  'the session cookie and the Bearer session token are security schemes of the operations using them',
  async (t) => {
    t.same(doc.servers, [
      {
        url: 'http://localhost:3000',
        description: 'This gateway (PUBLIC_ORIGIN), local development.',
        'x-internal': false,
      },
    ])
    t.match(doc.components.securitySchemes, {
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
      sessionToken: { type: 'http', scheme: 'bearer' },
    })
    const session = [{ sessionCookie: [] }, { sessionToken: [] }]
    const securityOf = Object.fromEntries(operations(doc).map(({ op }) => [op.operationId, op.security]))
    for (const id of ['listOrders', 'getMe', 'refreshSession'])
      t.same(securityOf[id], session, `${id} needs a session`)
    for (const id of ['getQuote', 'getSwapLimits', 'createOrder', 'getSession', 'logout']) {
      t.same(securityOf[id], [{}, ...session], `${id} takes a session when there is one`)
    }
    for (const id of ['listTokens', 'getOrder', 'followOrder', 'verifySignIn']) {
      t.same(securityOf[id], [], `${id} needs none`)
    }

    const https = await startGateway(t, { env: { PUBLIC_ORIGIN: 'https://app.example' } })
    const httpsDoc = (await https.app.inject({ url: '/api/openapi.json' })).json() as Doc
    t.same(
      httpsDoc.servers.map((s) => s.url),
      ['https://app.example'],
    )
    t.equal(httpsDoc.components.securitySchemes.sessionCookie!.name, '__Host-session')
  },
)

t.test('the stream names its events and their data; Problem types its code-specific members', async (t) => {
  const stream =
    doc.paths['/api/orders/{uuid}/status-stream']!.get!.responses['200']!.content!['text/event-stream']!
  t.same(
    stream.schema,
    { anyOf: [{ $ref: '#/components/schemas/Snapshot' }, { $ref: '#/components/schemas/StatusUpdate' }] },
    "the stream's schema is the union of its events' data, for generators that read only `schema`",
  )
  t.same(stream['x-events'], {
    snapshot: { data: { $ref: '#/components/schemas/Snapshot' } },
    'orders:status-update': { data: { $ref: '#/components/schemas/StatusUpdate' } },
  })
  const live = doc.paths['/api/v1/tokens/quote/stream']!.get!.responses['200']!.content!['text/event-stream']!
  t.same(
    live.schema,
    {
      anyOf: [
        { $ref: '#/components/schemas/LiveQuote' },
        { $ref: '#/components/schemas/LiveQuoteProblem' },
        { $ref: '#/components/schemas/LiveQuoteEnd' },
      ],
    },
    "the live quote's schema too",
  )
  t.same(live['x-events'], {
    quote: { data: { $ref: '#/components/schemas/LiveQuote' } },
    problem: { data: { $ref: '#/components/schemas/LiveQuoteProblem' } },
    end: { data: { $ref: '#/components/schemas/LiveQuoteEnd' } },
  })
  t.match(doc.components.schemas.LiveQuote, {
    allOf: [{ $ref: '#/components/schemas/Quote' }, { required: ['quotedAt'] }],
  })
  const wallet = doc.paths['/api/v1/orders/stream']!.get!.responses['200']!.content!['text/event-stream']!
  t.same(
    wallet.schema,
    {
      anyOf: [
        { $ref: '#/components/schemas/WalletSnapshot' },
        { $ref: '#/components/schemas/WalletOrderCreated' },
        { $ref: '#/components/schemas/StatusUpdate' },
      ],
    },
    "the wallet stream's schema too",
  )
  t.same(Object.keys(wallet['x-events']!), ['snapshot', 'order-created', 'orders:status-update'])
  // Generators type events from `schema` alone: each event's data names its event, so the union narrows.
  for (const media of [stream, live, wallet]) {
    for (const [name, { data }] of Object.entries(media['x-events']!)) {
      const schema = doc.components.schemas[data.$ref!.split('/').at(-1)!]!
      const tag = [schema, ...((schema.allOf ?? []) as Schema[])].find((s) => s.properties?.event)
      t.match(tag?.properties?.event, { type: 'string', const: name }, `${name}: named`)
      t.ok((tag?.required as string[] | undefined)?.includes('event'), `${name}: its name is required`)
    }
  }
  t.notOk(doc.components.schemas.Problem!.properties!.event, 'a problem answered as a body is not an event')
  t.ok(doc.paths['/api/v1/tokens/quote/stream']!.get!.responses['204'], 'a reconnect after the end is 204')
  t.match(doc.components.schemas.StatusUpdate!.properties, {
    status: { $ref: '#/components/schemas/OrderStatus' },
    order: { $ref: '#/components/schemas/Order' },
  })
  const enums = JSON.stringify(doc.components.schemas).match(/"AWAITING_USER_DEPOSIT"/g)
  t.equal(enums?.length, 1, 'one order-status enum, referenced everywhere')
  t.match(doc.components.schemas.OrderCreated, { allOf: [{ $ref: '#/components/schemas/Order' }] })
  t.match(doc.components.schemas.Order, {
    allOf: [
      { $ref: '#/components/schemas/OrderFields' },
      { required: ['walletAddress', 'depositToken', 'settleToken'] },
    ],
  })
  const open = Object.entries(doc.components.schemas).filter(
    ([, s]) => 'additionalProperties' in s && s.additionalProperties !== false,
  )
  t.same(
    open.map(([name]) => name),
    ['SwapLimits'],
    'swap limits is the one open object: no other body is typed with an index signature',
  )

  const problem = doc.components.schemas.Problem!.properties!
  t.same(problem.code!.enum, CODES)
  t.same(problem.side!.enum, ['deposit', 'settle'])
  t.equal(problem.tokenId!.type, 'integer')
  t.equal(problem.retryAfter!.type, 'integer')
  t.equal(problem.network!.type, 'string')
  t.equal(problem.challenge!.$ref, '#/components/schemas/Challenge')
  t.match(problem.errors, { type: 'array', items: { required: ['path', 'message'] } })
})

t.test('the API reference is served by the gateway itself, from the same document', async (t) => {
  const page = await app.inject({ url: '/api/docs' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
  t.ok(assets.length >= 4, 'scripts and styles')
  for (const asset of assets) {
    t.match(asset, /^\/api\/docs\/static\//, `${asset} is served by the gateway`)
    t.equal((await app.inject({ url: asset })).statusCode, 200, `${asset} is there`)
  }
  const copy = await app.inject({ url: '/api/docs/json' })
  t.same(copy.json(), doc, 'the page renders the document /api/openapi.json serves')
})

t.test('the error codes page has one anchor per code, where problem documents point', async (t) => {
  const errors = await app.inject({ url: '/api/docs/errors' })
  t.equal(errors.statusCode, 200)
  t.match(errors.headers['content-type'], /^text\/html/)
  for (const code of CODES) t.ok(errors.body.includes(`id="${codeSlug(code)}"`), `anchor #${codeSlug(code)}`)
  t.match(JSON.stringify(doc), 'http://localhost:3000/api/docs/errors', 'the reference links the codes page')

  const problem = (await app.inject({ url: '/api/v1/tokens/quote?depositTokenId=1' })).json() as {
    type: string
  }
  const [path, anchor] = problem.type.split('#')
  t.equal(path, 'http://localhost:3000/api/docs/errors', 'absolute on PUBLIC_ORIGIN')
  t.ok((await app.inject({ url: new URL(path!).pathname })).body.includes(`id="${anchor}"`))
})

t.test('a route that declares no answers keeps the gateway from starting', async (t) => {
  const app = await buildUnready(t)
  await app.register(async (scope) => {
    scope.get('/api/v1/forgotten', async () => ({}))
    scope.get(
      '/api/v1/declared',
      { config: { answers: { success: { 200: { description: 'Yes.' } }, problems: [] } } },
      async () => ({}),
    )
  })
  const failure = await app.ready().then(
    () => undefined,
    (err: Error) => err.message,
  )
  t.match(failure, /Routes without config\.answers.*GET \/api\/v1\/forgotten/, 'the route is named')
  t.notMatch(failure, '/api/v1/declared', 'a declared route is not')
})

t.test('security headers on every response; each docs page gets only the CSP it needs', async (t) => {
  const common = {
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'cross-origin-resource-policy': 'same-origin',
  }
  const pages = ['/api/docs', '/api/docs/errors']
  for (const url of [
    '/api/v1/tokens',
    '/api/openapi.json',
    '/healthz',
    '/no/such/route',
    '/api/v1/orders/nope',
    ...pages,
  ]) {
    const res = await app.inject({ url })
    t.match(res.headers, common, `${url} (${res.statusCode})`)
    const page = pages.includes(url)
    t.equal(
      res.headers['cross-origin-opener-policy'],
      page ? 'same-origin' : undefined,
      `${url}: document-only headers on pages only`,
    )
    if (!page)
      t.equal(
        res.headers['content-security-policy'],
        "default-src 'none';frame-ancestors 'none'",
        `${url}: API CSP`,
      )
  }

  const reference = String((await app.inject({ url: '/api/docs' })).headers['content-security-policy'])
  t.equal(
    reference,
    "default-src 'none';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self' http://localhost:3000;frame-ancestors 'none';base-uri 'none';form-action 'none'",
    'the reference: its own scripts and styles, data: icons, and calls to the gateway (try it out)',
  )

  const errors = await app.inject({ url: '/api/docs/errors' })
  const csp = String(errors.headers['content-security-policy'])
  t.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/, 'the codes page: only its own stylesheet, by hash')
  t.notMatch(csp, /unsafe-inline|script-src/)
  const style = /<style>([\s\S]*?)<\/style>/.exec(errors.body)?.[1] ?? ''
  const { createHash } = await import('node:crypto')
  t.ok(
    csp.includes(`'sha256-${createHash('sha256').update(style).digest('base64')}'`),
    'the hash matches the inline style',
  )
  t.notMatch(errors.body, /<script|https?:\/\//, 'self-contained: no script, no external resource')
})
