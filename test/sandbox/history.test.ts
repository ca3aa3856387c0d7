// GET /v1/orders: access token only, the caller's orders only, pagination and its 400s.
import t from 'tap'
import { z } from 'zod'
import { historyItemSchema } from '../../src/sandbox/resources.js'
import { startSandbox } from '../helpers/sandbox.js'
import { signInToSandbox } from '../helpers/sign-in.js'
import { call, cookiePair, createOrder, TENANT } from './http.js'

const pageSchema = z
  .object({
    status: z.literal(200),
    items: z.array(historyItemSchema.strict()),
    meta: z
      .object({
        currentPage: z.number(),
        itemCount: z.number(),
        itemsPerPage: z.number(),
        totalPages: z.number(),
        totalItems: z.number(),
      })
      .strict(),
  })
  .strict()

const notFound = {
  message: 'Access token not found in cookies or authorization header.',
  error: 'Unauthorized',
  statusCode: 401,
}

t.test(
  'no token, a tenant key alone, a stale or a foreign token: 401 with the documented message',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const other = await startSandbox(t)
    const foreign = other.control.issueAccessToken('0x000000000000000000000000000000000000dEaD', '1')
    const stale = control.issueAccessToken('0x000000000000000000000000000000000000dEaD', '1')
    control.advanceTime(15 * 60_000 + 1)
    const attempts: Record<string, string>[] = [
      {},
      TENANT,
      { authorization: `Bearer ${stale}` },
      { authorization: `Bearer ${foreign}` },
    ]
    for (const headers of attempts) {
      const res = await call(url, '/v1/orders', { headers })
      t.equal(res.status, 401)
      t.strictSame(res.body, notFound, JSON.stringify(Object.keys(headers)))
    }
  },
)

t.test('only the caller’s orders, as history items (expanded tokens, no walletAddress)', async (t) => {
  const { url } = await startSandbox(t)
  const alice = await signInToSandbox(url)
  const bob = await signInToSandbox(url)
  const asAlice = { ...TENANT, authorization: `Bearer ${alice.accessToken}` }
  const mine = [await createOrder(url, {}, asAlice), await createOrder(url, {}, asAlice)]
  await createOrder(url, {}, { ...TENANT, authorization: `Bearer ${bob.accessToken}` })
  await createOrder(url)
  const res = await call(url, '/v1/orders', { headers: { authorization: `Bearer ${alice.accessToken}` } })
  t.equal(res.status, 200)
  const page = pageSchema.parse(res.body)
  t.same(page.items.map((item) => item.uuid).sort(), mine.map((order) => order.uuid).sort())
  t.notOk('walletAddress' in (page.items[0] ?? {}), 'no walletAddress in history items')
  t.equal(page.items[0]?.depositToken.id, 2)
  t.strictSame(page.meta, { currentPage: 1, itemCount: 2, itemsPerPage: 10, totalPages: 1, totalItems: 2 })
  const byCookie = await call(url, '/v1/orders', {
    headers: { cookie: cookiePair(alice.res.cookies, 'access_token') },
  })
  t.equal(pageSchema.parse(byCookie.body).meta.totalItems, 2, 'the access_token cookie works too')
})

t.test('pagination: defaults 1 and 10, pages, a page past the end is empty', async (t) => {
  const { url } = await startSandbox(t)
  const user = await signInToSandbox(url)
  const auth = { authorization: `Bearer ${user.accessToken}` }
  for (let i = 0; i < 12; i++) await createOrder(url, {}, { ...TENANT, ...auth })
  const first = pageSchema.parse((await call(url, '/v1/orders', { headers: auth })).body)
  t.strictSame(first.meta, { currentPage: 1, itemCount: 10, itemsPerPage: 10, totalPages: 2, totalItems: 12 })
  const second = pageSchema.parse((await call(url, '/v1/orders?current=2', { headers: auth })).body)
  t.strictSame(second.meta, { currentPage: 2, itemCount: 2, itemsPerPage: 10, totalPages: 2, totalItems: 12 })
  const all = new Set([...first.items, ...second.items].map((item) => item.uuid))
  t.equal(all.size, 12, 'pages do not overlap')
  const small = pageSchema.parse((await call(url, '/v1/orders?current=3&limit=5', { headers: auth })).body)
  t.strictSame(small.meta, { currentPage: 3, itemCount: 2, itemsPerPage: 5, totalPages: 3, totalItems: 12 })
  const past = pageSchema.parse((await call(url, '/v1/orders?current=9', { headers: auth })).body)
  t.strictSame(past.items, [])
  t.strictSame(past.meta, { currentPage: 9, itemCount: 0, itemsPerPage: 10, totalPages: 2, totalItems: 12 })
})

t.test('a bad query parameter is 400 "Validation failed" with an errors array', async (t) => {
  const { url } = await startSandbox(t)
  const user = await signInToSandbox(url)
  const auth = { authorization: `Bearer ${user.accessToken}` }
  const cases: [string, object[]][] = [
    ['current=abc', [{ path: ['current'], code: 'invalid_type', expected: 'number', received: 'nan' }]],
    ['limit=1.5', [{ path: ['limit'], code: 'invalid_type', expected: 'integer', received: 'float' }]],
    ['current=0', [{ path: ['current'], code: 'too_small', expected: '>=1', received: '0' }]],
    ['limit=101', [{ path: ['limit'], code: 'too_big', expected: '<=100', received: '101' }]],
    [
      'current=-1&limit=x',
      [
        { path: ['current'], code: 'too_small' },
        { path: ['limit'], code: 'invalid_type' },
      ],
    ],
  ]
  for (const [query, errors] of cases) {
    const res = await call(url, `/v1/orders?${query}`, { headers: auth })
    t.equal(res.status, 400, query)
    t.match(res.body, { statusCode: 400, message: 'Validation failed', errors }, query)
    const parsed = z
      .object({
        errors: z.array(
          z
            .object({
              path: z.array(z.string()),
              code: z.string(),
              expected: z.string(),
              received: z.string(),
              message: z.string(),
            })
            .strict(),
        ),
      })
      .parse(res.body)
    t.equal(parsed.errors.length, errors.length)
  }
  const unauth = await call(url, '/v1/orders?current=abc')
  t.equal(unauth.status, 401, 'authentication comes before validation')
  t.equal(
    (await call(url, '/v1/orders?limit=100', { headers: auth })).status,
    200,
    'limit 100 is the maximum allowed',
  )
})
