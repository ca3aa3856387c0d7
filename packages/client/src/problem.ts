// GatewayProblem: how every failed call rejects. A problem document from the gateway becomes one
// member for member; a failure that brought no problem document (the network, a proxy's HTML page)
// becomes one too, under a code of the client's own, so callers branch on `code` alone. Each carries
// the operation that failed, so `isProblemOf(err, 'createOrder')` narrows `code` to the codes that
// operation can answer.
import type { OperationId, OperationProblemCode, Problem } from './types.js'

/** Codes the client gives failures that carry no problem document; never sent by the gateway. */
export const CLIENT_CODES = {
  /** No answer came: offline, DNS, refused or reset connection, a CORS refusal. */
  NETWORK_ERROR: { title: 'The gateway could not be reached', retryable: true },
  /** An answer that is not the gateway's: a proxy's error page, a body that is not JSON. */
  UNEXPECTED_RESPONSE: { title: 'The answer is not one the gateway gives', retryable: false },
  /** A stream was refused while a plain read answers fine (stream limits, shutdown). */
  STREAM_UNAVAILABLE: { title: 'The stream could not be opened', retryable: true },
  /** Sign-in succeeded but the browser did not keep the session cookie (the page and the gateway are on different sites). */
  COOKIE_NOT_KEPT: { title: 'The browser did not keep the session cookie', retryable: false },
  /** The browser would not make a push subscription: permission denied, no push service, no active worker. */
  PUSH_REFUSED: { title: 'The browser refused the push subscription', retryable: false },
} as const
export type ClientCode = keyof typeof CLIENT_CODES
export type ProblemCode = Problem['code'] | ClientCode

/** A client method that is not one operation. */
export type ClientMethod = OperationId | 'signIn' | 'subscribeToOrderPush' | 'unsubscribeFromOrderPush'
/** The codes a client method can reject with. */
export type MethodProblemCode<M extends ClientMethod> =
  | (M extends OperationId ? OperationProblemCode<M> : never)
  | (M extends 'followOrder' ? OperationProblemCode<'getOrder'> | 'STREAM_UNAVAILABLE' : never)
  | (M extends 'watchQuote' ? 'STREAM_UNAVAILABLE' : never)
  | (M extends 'signIn'
      ? OperationProblemCode<'getChallenge' | 'verifySignIn' | 'getSession'> | 'COOKIE_NOT_KEPT'
      : never)
  | (M extends 'subscribeToOrderPush'
      ? OperationProblemCode<'getPushPublicKey' | 'subscribeOrderPush'> | 'PUSH_REFUSED'
      : never)
  | (M extends 'unsubscribeFromOrderPush' ? OperationProblemCode<'unsubscribeOrderPush'> : never)
  | 'NETWORK_ERROR'
  | 'UNEXPECTED_RESPONSE'

export type ProblemDocument<C extends ProblemCode = ProblemCode> = Omit<Problem, 'code'> & { code: C }

// The members are copied from the document in the constructor; this interface types them from the
// Problem schema instead of a second list of members (declaration merging with the class below).
// The class takes no type parameter: `instanceof` fills a generic class's parameters with `any`,
// which would leave `err.code` untyped. Narrowing per method is `isProblemOf`'s, to MethodProblem.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface GatewayProblem extends ProblemDocument {
  /** The client method whose call failed. */
  method?: ClientMethod
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class GatewayProblem extends Error {
  constructor(document: ProblemDocument, options?: { cause?: unknown; method?: ClientMethod }) {
    super(document.detail, options)
    Object.assign(this, document)
    if (options?.method !== undefined) this.method = options.method
    this.name = 'GatewayProblem'
  }
}

/** How a client method rejects: its `code` is one that method can answer. */
export interface MethodProblem<M extends ClientMethod> extends GatewayProblem {
  code: MethodProblemCode<M>
}

/** Whether `err` is the rejection of a call to `method`; narrows its `code` to what `method` can answer. */
export function isProblemOf<M extends ClientMethod>(err: unknown, method: M): err is MethodProblem<M> {
  return err instanceof GatewayProblem && err.method === method
}

/** A problem of the client's own; `requestId` is the answer's, or empty when no answer came. */
export function clientProblem(
  code: ClientCode,
  detail: string,
  answer: { status: number; requestId: string; method?: ClientMethod },
  cause?: unknown,
): GatewayProblem {
  const { title, retryable } = CLIENT_CODES[code]
  const document: ProblemDocument = {
    type: 'about:blank',
    title,
    status: answer.status,
    code,
    detail,
    // A server error or a rate limit from something in between may well pass; a 4xx will not.
    retryable: retryable || answer.status >= 500 || answer.status === 429 || answer.status === 408,
    requestId: answer.requestId,
  }
  return new GatewayProblem(document, { cause, method: answer.method })
}

const isProblem = (value: unknown): value is ProblemDocument =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { code?: unknown }).code === 'string' &&
  typeof (value as { status?: unknown }).status === 'number'

/** The rejection for a non-2xx answer: its problem document, or UNEXPECTED_RESPONSE. */
export async function problemOf(res: Response, method?: ClientMethod): Promise<GatewayProblem> {
  const requestId = res.headers.get('x-request-id') ?? ''
  const text = await res.text().catch(() => '')
  if (/json/i.test(res.headers.get('content-type') ?? '')) {
    try {
      const body: unknown = JSON.parse(text)
      if (isProblem(body)) return new GatewayProblem(body, { method })
    } catch {
      // Not JSON after all: reported below like any other foreign answer.
    }
  }
  return clientProblem(
    'UNEXPECTED_RESPONSE',
    `The gateway's address answered ${res.status} without a problem document (a proxy in between?).`,
    { status: res.status, requestId, method },
  )
}
