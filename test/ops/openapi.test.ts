import { validate } from '@readme/openapi-parser'
import t from 'tap'
import { codeSlug, ERROR_CODES, type ErrorCode } from '../../src/errors.js'
import { startGateway } from '../helpers/gateway.js'

/** CONTRACT.md §2, as OpenAPI paths. */
const CONTRACT_ROUTES = [
  'get /api/v1/tokens',
  'get /api/v1/tokens/{id}',
  'get /api/v1/chains',
  'get /api/v1/tokens/swap-limits',
  'get /api/v1/tokens/quote',
  'post /api/v1/orders/create',
  'get /api/v1/orders/{uuid}',
  'get /api/v1/orders',
  'get /api/orders/{uuid}/status-stream',
  'get /api/auth/siwx/challenge',
  'post /api/auth/siwx/verify',
  'post /api/auth/refresh',
  'get /api/auth/me',
  'get /api/auth/session',
  'post /api/auth/logout',
  'get /healthz',
  'get /readyz',
  'get /metrics',
  'get /api/openapi.json',
  'get /api/docs',
]
const CODES = Object.keys(ERROR_CODES) as ErrorCode[]

type Doc = {
  openapi: string
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string }>
        responses: Record<string, { $ref?: string; 'x-error-codes'?: string[] }>
      }
    >
  >
  components: { responses: Record<string, { description: string }>; schemas: Record<string, unknown> }
}

const codesOf = (responses: Doc['paths'][string][string]['responses']) =>
  Object.values(responses).flatMap((r) => r['x-error-codes'] ?? (r.$ref ? [r.$ref.split('/').pop()!] : []))

t.test('the OpenAPI document is valid OpenAPI 3.1 and lists every route of the contract', async (t) => {
  const { app } = await startGateway(t)
  const res = await app.inject({ url: '/api/openapi.json' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const doc = res.json() as Doc
  t.equal(doc.openapi, '3.1.0')

  const result = await validate(structuredClone(doc) as never)
  t.ok(result.valid, 'a maintained validator accepts it')
  if (!result.valid) t.comment(JSON.stringify(result.errors, null, 1).slice(0, 4000))

  const listed = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => m !== 'servers')
      .map((m) => `${m} ${path}`),
  )
  for (const route of CONTRACT_ROUTES) t.ok(listed.includes(route), `lists ${route}`)

  const quote = doc.paths['/api/v1/tokens/quote']!.get!
  t.same(
    quote.parameters?.map((p) => `${p.in}:${p.name}`).sort(),
    ['query:amount', 'query:amountIsDeposit', 'query:depositTokenId', 'query:settleTokenId'],
    'parameters come from the route schemas',
  )
  t.ok(quote.responses['200'], 'a success answer')

  for (const code of [
    'INVALID_AMOUNT',
    'UNKNOWN_TOKEN',
    'PAIR_UNAVAILABLE',
    'NO_QUOTE',
    'RATE_LIMITED',
    'UPSTREAM_TIMEOUT',
  ]) {
    t.ok(codesOf(quote.responses).includes(code), `quote lists ${code}`)
  }
  const create = doc.paths['/api/v1/orders/create']!.post!
  t.ok(create.responses['201'])
  for (const code of [
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
    'ORDER_OUTCOME_UNKNOWN',
    'INVALID_ADDRESS',
  ]) {
    t.ok(codesOf(create.responses).includes(code), `create lists ${code}`)
  }
  t.notOk(
    codesOf(doc.paths['/healthz']!.get!.responses).includes('RATE_LIMITED'),
    'health is never rate-limited',
  )

  for (const code of CODES) {
    const entry = doc.components.responses[code]
    t.ok(entry, `the catalogue has ${code}`)
    t.match(entry?.description, ERROR_CODES[code].title, `${code} carries its title and meaning`)
  }
  t.ok(doc.components.schemas.Problem, 'the problem schema')
})

t.test('the docs page lists the routes and links every error code to its anchor', async (t) => {
  const { app } = await startGateway(t)
  const page = await app.inject({ url: '/api/docs' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  for (const path of [
    '/api/v1/tokens/quote',
    '/api/orders/{uuid}/status-stream',
    '/api/auth/siwx/verify',
    '/readyz',
  ]) {
    t.ok(page.body.includes(path), `lists ${path}`)
  }
  t.notMatch(page.body, /<script|https?:\/\/(?!localhost)/, 'self-contained: no script, no external resource')

  const errors = await app.inject({ url: '/api/docs/errors' })
  t.equal(errors.statusCode, 200)
  for (const code of CODES) {
    t.ok(errors.body.includes(`id="${codeSlug(code)}"`), `anchor #${codeSlug(code)}`)
    t.ok(page.body.includes(`id="${codeSlug(code)}"`), `the docs page has #${codeSlug(code)} too`)
  }

  // A problem document's `type` resolves to a page with its anchor.
  const problem = (await app.inject({ url: '/api/v1/tokens/quote?depositTokenId=1' })).json() as {
    type: string
  }
  const [path, anchor] = problem.type.split('#')
  t.equal(path, 'http://localhost:3000/api/docs/errors', 'absolute on PUBLIC_ORIGIN')
  t.ok((await app.inject({ url: new URL(path!).pathname })).body.includes(`id="${anchor}"`))
})

t.test('security headers on every response; the docs pages get only the CSP they need', async (t) => {
  const { app } = await startGateway(t)
  const common = {
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'cross-origin-resource-policy': 'same-origin',
  }
  for (const url of [
    '/api/v1/tokens',
    '/api/openapi.json',
    '/healthz',
    '/no/such/route',
    '/api/v1/orders/nope',
    '/api/docs',
  ]) {
    const res = await app.inject({ url })
    t.match(res.headers, common, `${url} (${res.statusCode})`)
    t.equal(
      res.headers['cross-origin-opener-policy'],
      url.includes('/docs') ? 'same-origin' : undefined,
      `${url}: document-only headers on pages only`,
    )
    if (!url.includes('/docs')) {
      t.equal(
        res.headers['content-security-policy'],
        "default-src 'none';frame-ancestors 'none'",
        `${url}: API CSP`,
      )
    }
  }
  const page = await app.inject({ url: '/api/docs' })
  const csp = String(page.headers['content-security-policy'])
  t.match(csp, /default-src 'none'/)
  t.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/, "only the page's own stylesheet, by hash")
  t.notMatch(csp, /unsafe-inline|script-src/)
  const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)?.[1] ?? ''
  const { createHash } = await import('node:crypto')
  t.ok(
    csp.includes(`'sha256-${createHash('sha256').update(style).digest('base64')}'`),
    'the hash matches the inline style',
  )
})
