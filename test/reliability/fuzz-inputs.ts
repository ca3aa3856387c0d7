// fast-check generators of what a client can send each public route: paths with hostile parameters,
// queries with wrong, repeated and unknown parameters, hostile headers and bodies. Each request is
// named by the OpenAPI operation it aims at, so its answer can be held to that operation's statuses.
import fc from 'fast-check'

export interface FuzzRequest {
  /** The OpenAPI key aimed at (`GET /api/v1/orders/{uuid}`), or null for a path of no route. */
  operation: string | null
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

const VALID_UUID = '3b241101-e2bb-4255-8caf-4136c566a962'

/** Text a path segment or a query value may be made of, hostile pieces included. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '..',
    '%2e%2e',
    '%2F',
    '%2f..%2f',
    '..%2F..%2Fv1%2Ftokens',
    '%00',
    '%zz',
    '%',
    '-1',
    '0',
    '1e309',
    'NaN',
    'Infinity',
    '9007199254740993',
    ' 1',
    '0x10',
    'true',
    '[]',
    '{}',
    VALID_UUID,
    VALID_UUID.toUpperCase(),
    `${VALID_UUID}/../x`,
    'A'.repeat(300),
    '%F0%9F%92%A5',
    '\u0000',
  ),
  fc.integer({ min: -5, max: 3000 }).map(String),
  fc.double().map(String),
)

/** Percent-encodes what a request target cannot carry raw, keeping `%`, `/` and `.` as sent. */
const segment = hostileText.map((s) => s.replace(/[^\w.~%/:@!$&'()*+,;=-]/gu, (c) => encodeURIComponent(c)))

const queryValue = hostileText.map((s) => encodeURIComponent(s))

function query(names: string[]) {
  const known = fc.constantFrom(...names)
  const name = fc.oneof(
    { weight: 4, arbitrary: known },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  )
  return fc
    .array(fc.tuple(name, fc.oneof(queryValue, fc.constantFrom('1', '2', '19', 'true', 'false', '100'))), {
      maxLength: 6,
    })
    .map((pairs) =>
      pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`,
    )
}

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        depositTokenId: fc.oneof(fc.integer({ min: -2, max: 2300 }), fc.jsonValue({ maxDepth: 1 })),
        settleTokenId: fc.oneof(fc.integer({ min: -2, max: 2300 }), fc.jsonValue({ maxDepth: 1 })),
        receivingAddress: fc.oneof(
          fc.constant('0x52908400098527886E0F7030069857D2E4169EE7'),
          fc.string({ maxLength: 70 }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        intendedAmount: fc.oneof(fc.double(), fc.jsonValue({ maxDepth: 1 })),
        intendedIsDeposit: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
        data: fc.record(
          { chainId: fc.oneof(fc.string(), fc.integer()), accountAddress: fc.string() },
          { requiredKeys: [] },
        ),
        message: fc.oneof(fc.string({ maxLength: 200 }), fc.constant('localhost:3000 wants you\nNonce: abc')),
        signature: fc.oneof(fc.string({ maxLength: 140 }), fc.constant(`0x${'ab'.repeat(65)}`)),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constant('{"depositTokenId": 1,'),
)

const ORIGINS = [
  'http://localhost:3000',
  'http://localhost:5173',
  'https://evil.example',
  'null',
  'http://localhost:3000/',
  'file://',
]

/**
 * Stands for the suite's live session token in generated values, replaced when the request is sent,
 * so a printed counterexample never shows a usable session.
 */
export const SESSION = '<session>'

/** Headers a client may send. */
function headers(bodyAllowed: boolean) {
  const session = SESSION
  return fc
    .record(
      {
        // Mostly our own origin: a refused one answers before anything else and would hide the rest.
        origin: fc.oneof(
          { weight: 5, arbitrary: fc.constant(ORIGINS[0] ?? '') },
          { weight: 1, arbitrary: fc.constantFrom(...ORIGINS) },
          { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
        ),
        'content-type': fc.oneof(
          { weight: 5, arbitrary: fc.constant('application/json') },
          {
            weight: 2,
            arbitrary: fc.constantFrom(
              'application/json; charset=utf-8',
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/problem+json',
              'multipart/form-data; boundary=x',
            ),
          },
        ),
        authorization: fc.oneof(
          fc.constant(`Bearer ${session}`),
          fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
          fc.constant(`Bearer ${session}AAAA`),
          fc.string({ maxLength: 40 }),
        ),
        cookie: fc.oneof(
          fc.string({ maxLength: 60 }).map((s) => `session=${encodeURIComponent(s)}`),
          fc.constant(`session=${session}`),
          fc.string({ maxLength: 60 }),
        ),
        'idempotency-key': fc.oneof(fc.string({ maxLength: 300 }), fc.uuid()),
        'if-none-match': fc.oneof(fc.string({ maxLength: 40 }), fc.constant('*')),
        'last-event-id': fc.string({ maxLength: 30 }),
        'x-session-mode': fc.constantFrom('token', 'cookie', 'other', ''),
        'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', 'gzip;q=0, br;q=0', '*'),
        accept: fc.constantFrom('application/json', 'text/event-stream', '*/*', 'text/html'),
        traceparent: fc.string({ maxLength: 60 }),
      },
      { requiredKeys: [] },
    )
    .map((h) => {
      const clean: Record<string, string> = {}
      // Header values a client library cannot send at all are the security suite's (raw sockets).
      for (const [k, v] of Object.entries(h)) {
        if (k === 'content-type' && !bodyAllowed) continue
        if (/^[\t\x20-\x7e]*$/.test(v)) clean[k] = v
      }
      return clean
    })
}

interface Target {
  operation: string | null
  method: string
  path: fc.Arbitrary<string>
  body?: boolean
}

const p = (text: string) => fc.constant(text)

function targets(prefix: string): Target[] {
  const q = (path: string, names: string[]) => query(names).map((qs) => `${prefix}${path}${qs}`)
  const param = (before: string, after = '') => segment.map((s) => `${prefix}${before}${s}${after}`)
  return [
    {
      operation: 'GET /api/v1/tokens',
      method: 'GET',
      path: q('/v1/tokens', ['tradable', 'network', 'symbol', 'q']),
    },
    { operation: 'GET /api/v1/tokens/{id}', method: 'GET', path: param('/v1/tokens/') },
    { operation: 'GET /api/v1/chains', method: 'GET', path: p(`${prefix}/v1/chains`) },
    {
      operation: 'GET /api/v1/tokens/swap-limits',
      method: 'GET',
      path: q('/v1/tokens/swap-limits', ['depositTokenId', 'settleTokenId']),
    },
    {
      operation: 'GET /api/v1/tokens/quote',
      method: 'GET',
      path: q('/v1/tokens/quote', ['depositTokenId', 'settleTokenId', 'amount', 'amountIsDeposit']),
    },
    {
      operation: 'POST /api/v1/orders/create',
      method: 'POST',
      path: p(`${prefix}/v1/orders/create`),
      body: true,
    },
    { operation: 'GET /api/v1/orders/{uuid}', method: 'GET', path: param('/v1/orders/') },
    { operation: 'GET /api/v1/orders', method: 'GET', path: q('/v1/orders', ['current', 'limit']) },
    {
      operation: 'GET /api/orders/{uuid}/status-stream',
      method: 'GET',
      path: param('/orders/', '/status-stream'),
    },
    {
      operation: 'GET /api/auth/siwx/challenge',
      method: 'GET',
      path: q('/auth/siwx/challenge', ['address', 'chainId']),
    },
    {
      operation: 'POST /api/auth/siwx/verify',
      method: 'POST',
      path: p(`${prefix}/auth/siwx/verify`),
      body: true,
    },
    { operation: 'POST /api/auth/refresh', method: 'POST', path: p(`${prefix}/auth/refresh`), body: true },
    { operation: 'GET /api/auth/me', method: 'GET', path: p(`${prefix}/auth/me`) },
    { operation: 'GET /api/auth/session', method: 'GET', path: p(`${prefix}/auth/session`) },
    { operation: 'GET /healthz', method: 'GET', path: p('/healthz') },
    { operation: 'GET /readyz', method: 'GET', path: p('/readyz') },
    { operation: null, method: 'GET', path: segment.map((s) => `${prefix}/${s}`) },
    { operation: null, method: 'DELETE', path: param('/v1/orders/') },
    { operation: null, method: 'PUT', path: p(`${prefix}/v1/orders/create`), body: true },
  ]
}

/** One fuzzed request (logout is left out: it would end the suite's session). */
export function fuzzRequest(prefix: string): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...targets(prefix)).chain((target) =>
    fc.record({
      operation: fc.constant(target.operation),
      method: fc.constant(target.method),
      path: target.path,
      headers: headers(target.body === true),
      body: target.body ? fc.option(jsonBody, { nil: undefined }) : fc.constant(undefined),
    }),
  )
}
