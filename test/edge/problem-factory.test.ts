// Every condition's problem, made once each: a document the OpenAPI `Problem` schema accepts, with its
// code's status, a detail text, and a text no other condition shares (each text is written once, in
// src/problems.ts), but for the one pair that says the same on purpose.
import t from 'tap'
import { problemSchema } from '../../src/edge/problem-schema.js'
import { ERROR_CODES, problemDocument } from '../../src/errors.js'
import { problems } from '../../src/problems.js'

const pair = { depositTokenId: 1, settleTokenId: 2 }
const cause = new Error('socket hang up')
const field = [{ path: 'query.amount', message: 'must be a number' }]
const challenge = { nonce: 'n0nce', message: 'example.com wants you to sign in' }

/** The pause after an upstream 429 tells a client what that 429 did: the same words. */
const SAME_TEXT: Record<string, string> = { coolingDown: 'upstreamRateLimiting' }

/** What varies, per condition: every function of `problems` is listed. */
const ARGUMENTS: Record<keyof typeof problems, unknown[]> = {
  invalidField: ['VALIDATION_FAILED', 'query', 'amount', field],
  invalidInput: ['body', field],
  bodyNotJson: [],
  bodyTooLarge: [],
  bodyNotJsonType: [],
  malformedUrl: [],
  pathParameterTooLong: [],
  requestTargetTooLong: [],
  headersTooLarge: [],
  requestTooSlow: [],
  notHttp: [],
  noSuchRoute: [],
  noSuchFile: [],
  notServable: [],
  internal: [cause],
  originNotAllowed: [],
  cookieWithoutOrigin: [],
  rateLimited: [{ group: 'pricing', limit: 120, whose: 'from this client' }, 30],
  tooManyStreams: [20, 5],
  noRoomForStream: [5],
  notReady: [{ catalog: 'not loaded yet' }, { redis: 'unreachable' }],
  unknownToken: ['deposit', 7],
  tokenNotFound: [7],
  depositTokenInactive: [pair],
  depositsDisabled: [pair, 'bitcoin'],
  settleTokenInactive: [pair],
  noTradePath: [pair],
  noQuote: [pair],
  amountNotPositive: [],
  intendedAmountNotPositive: [],
  invalidAddress: ['bitcoin'],
  catalogUnavailable: [cause],
  catalogLoadAbandoned: [],
  noLiveQuote: [],
  liveQuoteFailed: [cause],
  orderNotFound: [],
  pushEndpointRefused: ['must be an https: URL'],
  tooManySubscriptions: [5],
  pushSubscriptionsUnavailable: [],
  orderOutcomeUnknown: [],
  replayed: [
    {
      code: 'ORDER_OUTCOME_UNKNOWN',
      detail: 'The order may or may not exist.',
      retryable: true,
      members: {},
    },
  ],
  idempotencyKeyReused: [],
  idempotencyInProgress: [],
  historyNeedsSignIn: [],
  signInRequired: [],
  signInLapsed: [challenge],
  sessionNotRenewed: [challenge],
  renewalRefused: [],
  sessionNotAccepted: [],
  signInMessageRefused: ['its domain is not this site'],
  signInMessageLapsed: [],
  signatureInvalid: [],
  nonceMissing: [],
  nonceInvalid: [],
  breakerOpen: [],
  upstreamRateLimiting: [3],
  coolingDown: [3],
  callBudgetSpent: [],
  upstreamTimeout: [cause],
  upstreamUnreachable: [cause],
  upstreamConnectionFailed: [cause],
  upstreamFailed: [{ retryable: false }],
  upstreamUnreadable: [],
  upstreamRefusedAsMalformed: [],
  tenantKeyRejected: [],
  sandboxRefused: ['NOT_FOUND', 'no such order'],
  sandboxFailed: [],
  sandboxUnreachable: [cause],
}

t.test('each condition makes a problem document of its code, with a text of its own', async (t) => {
  const texts = new Map<string, string>()
  for (const [name, args] of Object.entries(ARGUMENTS)) {
    const make = problems[name as keyof typeof problems] as (
      ...a: unknown[]
    ) => ReturnType<typeof problems.internal>
    const error = make(...args)
    const document = problemDocument(error, 'req-1', 'https://app.example/api/docs/errors')
    const parsed = problemSchema.safeParse(document)
    t.ok(parsed.success, `${name}: the Problem schema accepts it ${parsed.error?.message ?? ''}`)
    t.equal(document.status, ERROR_CODES[error.code].status, `${name}: ${error.code}'s status`)
    t.match(error.detail, /^[A-Z]./, `${name}: a detail text`)
    const text = `${error.code} ${error.detail}`
    const same = texts.get(text)
    if (SAME_TEXT[name]) t.equal(same, SAME_TEXT[name], `${name}: the same text as ${SAME_TEXT[name]}`)
    else t.equal(same, undefined, `${name}: a text of its own`)
    texts.set(text, name)
  }
  t.same(Object.keys(ARGUMENTS).sort(), Object.keys(problems).sort(), 'every condition is listed here')
})
