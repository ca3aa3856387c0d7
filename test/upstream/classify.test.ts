// The upstream's answers, as its spec documents them, turned into our codes: business errors arrive as
// 500s told apart by message (never by `error` or casing), and only unclassified failures count as
// upstream trouble (retried for GETs, counted by the breaker).
import t from 'tap'
import { classifyAnswer, classifyTransportError, type Operation } from '../../src/upstream/classify.js'

const envelope = (statusCode: number, message: string | string[], error?: string) => ({
  statusCode,
  message,
  ...(error ? { error } : {}),
})
const NOW = Date.parse('2026-11-23T12:00:00Z')
const answer = (operation: Operation, status: number, body: unknown, retryAfter?: string) => {
  const { error, unclassified } = classifyAnswer(operation, status, body, retryAfter, NOW)
  return { code: error.code, members: error.members, retryable: error.retryable, unclassified }
}

t.test('the 500 messages for invalid input map to their codes, whatever the casing', async (t) => {
  const cases: Array<[Operation, string, string, Record<string, unknown>]> = [
    ['quote', 'Invalid amount: 0', 'INVALID_AMOUNT', {}],
    [
      'quote',
      'Invalid deposit token id provided: 99999',
      'UNKNOWN_TOKEN',
      { side: 'deposit', tokenId: 99999 },
    ],
    ['create', 'INVALID SETTLE TOKEN ID PROVIDED: 7', 'UNKNOWN_TOKEN', { side: 'settle', tokenId: 7 }],
    ['create', 'Invalid ETH address: undefined', 'INVALID_ADDRESS', { network: 'ETH' }],
    [
      'swapLimits',
      "Couldn't find trade path for 1 -> 2",
      'PAIR_UNAVAILABLE',
      { depositTokenId: 1, settleTokenId: 2 },
    ],
  ]
  for (const [operation, message, code, members] of cases) {
    const got = answer(operation, 500, envelope(500, message, 'Internal Server Error'))
    t.equal(got.code, code, message)
    t.same(got.members, members, `${message}: members`)
    t.notOk(got.unclassified, `${message}: a client problem, not an outage`)
  }
})

t.test('the unknown-order answer is exactly {statusCode, message} on an order read', async (t) => {
  for (const message of ['Internal Server Error', 'Internal server error']) {
    t.equal(answer('orderRead', 500, envelope(500, message)).code, 'ORDER_NOT_FOUND', message)
  }
  const withError = answer('orderRead', 500, envelope(500, 'Internal server error', 'Internal Server Error'))
  t.equal(withError.code, 'UPSTREAM_ERROR', 'with an `error` member it is a generic failure')
  t.ok(withError.unclassified)
  t.equal(answer('quote', 500, envelope(500, 'Internal Server Error')).code, 'UPSTREAM_ERROR', 'other routes')
})

t.test('the 401 messages map to sign-in codes or to the operator problem', async (t) => {
  const cases: Array<[Operation, string, string]> = [
    ['verify', 'EVM signature verification failed', 'SIGNATURE_INVALID'],
    ['verify', 'Nonce not found in the message.', 'NONCE_MISSING'],
    ['verify', 'Invalid or expired nonce.', 'NONCE_INVALID'],
    ['verify', 'x-tenant-api-key not present', 'UPSTREAM_AUTH_FAILED'],
    ['quote', 'Valid access token required.', 'UPSTREAM_AUTH_FAILED'],
    ['refresh', 'Invalid or expired refresh token.', 'SESSION_EXPIRED'],
    ['refresh', 'Refresh token not found.', 'SESSION_EXPIRED'],
    ['history', 'Access token not found in cookies or authorization header.', 'SESSION_EXPIRED'],
  ]
  for (const [operation, message, code] of cases) {
    const got = answer(operation, 401, envelope(401, message, 'Unauthorized'))
    t.equal(got.code, code, message)
    t.notOk(got.unclassified)
  }
  t.equal(answer('me', 401, envelope(401, 'Something new')).code, 'UPSTREAM_ERROR', 'an undocumented 401')
})

t.test('a message given as an array is read joined', async (t) => {
  t.equal(answer('quote', 500, envelope(500, ['Invalid amount: 0'])).code, 'INVALID_AMOUNT')
})

t.test('an upstream 400 is refused input, never retried', async (t) => {
  const got = answer('quote', 400, envelope(400, ['amount must be a number'], 'Bad Request'))
  t.equal(got.code, 'VALIDATION_FAILED')
  t.notOk(got.unclassified)
})

t.test('what is not a documented envelope is an upstream failure: retryable except for create', async (t) => {
  for (const body of ['<html>Bad gateway</html>', null, { statusCode: 502, message: 'x' }, { oops: true }]) {
    const quote = answer('quote', 500, body)
    t.equal(quote.code, 'UPSTREAM_ERROR', JSON.stringify(body))
    t.ok(quote.unclassified)
    t.ok(quote.retryable)
  }
  t.notOk(answer('create', 502, '<html>').retryable, 'a failed create is not retryable')
})

t.test('a 429 stops the gateway, with the upstream Retry-After in seconds when it gives one', async (t) => {
  const seconds = answer('quote', 429, envelope(429, 'Too Many Requests'), '30')
  t.equal(seconds.code, 'UPSTREAM_UNAVAILABLE')
  t.same(seconds.members, { retryAfter: 30 })
  t.notOk(seconds.unclassified, 'not counted by the breaker, not retried')
  const date = answer('quote', 429, 'slow down', new Date(NOW + 90_000).toUTCString())
  t.same(date.members, { retryAfter: 90 }, 'an HTTP date, counted from the injected clock')
  t.same(answer('quote', 429, '', undefined).members, { retryAfter: 60 }, 'none given: a minute')
})

t.test('transport failures: refused is unavailable, a lost create is an unknown outcome', async (t) => {
  const refused = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })
  const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
  const timeout = Object.assign(new Error('headers'), { code: 'UND_ERR_HEADERS_TIMEOUT' })
  t.equal(classifyTransportError('create', refused, false).error.code, 'UPSTREAM_UNAVAILABLE', 'never sent')
  t.equal(classifyTransportError('create', reset, false).error.code, 'ORDER_OUTCOME_UNKNOWN')
  t.equal(classifyTransportError('create', timeout, true).error.code, 'ORDER_OUTCOME_UNKNOWN')
  t.equal(classifyTransportError('quote', timeout, false).error.code, 'UPSTREAM_TIMEOUT')
  t.equal(classifyTransportError('quote', reset, true).error.code, 'UPSTREAM_TIMEOUT', 'past the deadline')
  t.equal(classifyTransportError('quote', reset, false).error.code, 'UPSTREAM_UNAVAILABLE')
  const wrapped = new Error('fetch failed', { cause: refused })
  t.equal(
    classifyTransportError('orderRead', wrapped, false).error.code,
    'UPSTREAM_UNAVAILABLE',
    'a cause chain',
  )
  for (const err of [refused, reset, timeout]) t.ok(classifyTransportError('quote', err, false).unclassified)
})
