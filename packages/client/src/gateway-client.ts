// createGatewayClient: one method per operation of the gateway (named as the OpenAPI operationIds),
// wallet sign-in over EIP-1193, and a lapsed session signed back in once without the caller noticing.
// Each method rejects with a GatewayProblem whose `code` is one the operation can answer
// (`MethodProblem<'getOrder'>`; narrow a caught error with `isProblemOf(err, 'getOrder')`).
import { followOrder, type EventSourceConstructor, type FollowHandlers, type Following } from './follow.js'
import { followMyOrders, type FollowingMyOrders, type MyOrdersHandlers } from './follow-my-orders.js'
import { type Call, type Credentials, type FetchLike, Http } from './http.js'
import { clientProblem, GatewayProblem, type ClientMethod } from './problem.js'
import { pushMethods, type PushMethods } from './push.js'
import type {
  Blockchain,
  Challenge,
  ChallengeParams,
  CreateOrderBody,
  HistoryParams,
  Me,
  Order,
  OrderCreated,
  OrderHistory,
  Quote,
  QuoteParams,
  SessionView,
  SignInResult,
  SwapLimits,
  SwapLimitsParams,
  Token,
  TokenFilters,
  VerifyBody,
} from './types.js'
import { type Wallet, type WalletAccount, walletAccount } from './wallet.js'
import { type PageVisibility, type QuoteHandlers, watchQuote, type Watching } from './watch-quote.js'

export type SessionMode = 'cookie' | 'token'

export interface GatewayClientOptions {
  /** The gateway's origin, such as `https://app.example`. Default: the page's origin in a browser. */
  baseUrl?: string
  /** The prefix of the public routes. Default `/api`. */
  apiPrefix?: string
  /** Default: the global fetch. */
  fetch?: FetchLike
  /** Default: the global EventSource (Node 20 and React Native have none: pass a polyfill's class). */
  EventSource?: EventSourceConstructor
  /** fetch's credentials mode, for the session cookie. Default `include` (an allowed cross origin). */
  credentials?: Credentials
  /**
   * `cookie`: the session is the gateway's HttpOnly cookie (a browser page). `token`: the client asks
   * for the session token at sign-in and sends it as `Authorization: Bearer` (apps, servers, a page on
   * another site than the gateway). Default: `token` when a `sessionToken` is given or there is no
   * `document` (Node, React Native, workers), `cookie` otherwise.
   */
  sessionMode?: SessionMode
  /** A session token from an earlier sign-in (token mode), sent as `Authorization: Bearer`. */
  sessionToken?: string
  /**
   * Token mode: called with the new token whenever sign-in, a renewal or a re-sign after a lapsed
   * session changes it, and with `undefined` after logout, so an app can keep it across restarts.
   */
  onSessionToken?(token: string | undefined): void
  /**
   * The wallet to sign in with, and to sign back in with when the session lapses, from the first
   * call: an EIP-1193 provider, or a `MessageSigner` (`{ address, chainId, signMessage }`). An app
   * that restarts with a stored `sessionToken` then signs again once, as after `signIn`, instead of
   * failing with `SESSION_EXPIRED`.
   */
  wallet?: Wallet
}

export interface SignInOptions {
  /** The chain to sign in on; default the wallet's current chain (`eth_chainId`). */
  chainId?: number | string
}

/** Each method rejects with `MethodProblem<'<its name>'>`: a GatewayProblem with the codes it can answer. */
export interface GatewayClient extends PushMethods {
  listTokens(filters?: TokenFilters): Promise<Token[]>
  getToken(id: number | string): Promise<Token>
  listChains(): Promise<Blockchain[]>
  getQuote(params: QuoteParams): Promise<Quote>
  getSwapLimits(params: SwapLimitsParams): Promise<SwapLimits>
  /** With an `idempotencyKey`, a repeat (a retry after a lost answer) never creates a second order. */
  createOrder(body: CreateOrderBody, options?: { idempotencyKey?: string }): Promise<OrderCreated>
  getOrder(uuid: string): Promise<Order>
  listOrders(params?: HistoryParams): Promise<OrderHistory>
  /** Problems go to `handlers.onError`: `MethodProblem<'followOrder'>`. */
  followOrder(uuid: string, handlers: FollowHandlers): Following
  /**
   * The quote kept fresh by the gateway (one shared refresh per distinct quote); problems go to
   * `handlers.onProblem`. In a browser page it pauses while the page is hidden.
   */
  watchQuote(params: QuoteParams, handlers: QuoteHandlers): Watching
  /**
   * Every order of the signed-in user on one stream: a snapshot, then each order created and each
   * status change; problems go to `handlers.onError`. When the session lapses and the client holds a
   * wallet, it signs again and reopens the stream. In token mode the EventSource class must send
   * `init.headers` (react-native-sse and event-source-polyfill do).
   */
  followMyOrders(handlers: MyOrdersHandlers): FollowingMyOrders
  getChallenge(params?: ChallengeParams): Promise<Challenge>
  verifySignIn(body: VerifyBody): Promise<SignInResult>
  /** Renews the session; holding a wallet from signIn, a refused renewal is one signature instead. */
  refreshSession(): Promise<SignInResult>
  getMe(): Promise<Me>
  getSession(): Promise<SessionView>
  logout(): Promise<void>
  /**
   * Sign-in with one wallet signature (default: the `wallet` the client was created with); the client
   * keeps the wallet to sign again when the session lapses. A wallet so slow that the message or its nonce lapsed is asked once more, with the fresh
   * challenge the refusal carries. In cookie mode it then checks that the browser kept the session
   * cookie (`COOKIE_NOT_KEPT`).
   */
  signIn(wallet?: Wallet, options?: SignInOptions): Promise<SignInResult>
  /** The session token held in token mode (to keep across restarts), else undefined. */
  readonly sessionToken: string | undefined
}

interface Browserish {
  location?: { origin?: string }
  document?: Partial<PageVisibility>
  EventSource?: EventSourceConstructor
}
const browser = globalThis as Browserish

const TOKEN_MODE = { 'x-session-mode': 'token' }

export function createGatewayClient(options: GatewayClientOptions = {}): GatewayClient {
  const baseUrl = (options.baseUrl ?? browser.location?.origin)?.replace(/\/+$/, '')
  if (!baseUrl) throw new TypeError('createGatewayClient needs a baseUrl outside a browser page.')
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const credentials = options.credentials ?? 'include'
  const mode: SessionMode =
    options.sessionMode ??
    (options.sessionToken !== undefined || browser.document === undefined ? 'token' : 'cookie')
  const http = new Http({
    baseUrl,
    apiPrefix: options.apiPrefix ?? '/api',
    fetch: fetchImpl,
    credentials,
    bearer: mode === 'token',
    sessionToken: options.sessionToken,
  })
  /** The wallet to sign again with when the session lapses: the last signIn's, or the one given. */
  let wallet: Wallet | undefined = options.wallet
  /** Its account, once known: a wallet given at creation is asked only when it first has to sign. */
  let account: WalletAccount | undefined
  /** One re-sign at a time: calls that lapse together share one wallet prompt. */
  let resigning: Promise<SignInResult> | undefined

  function keepToken(token: string | undefined) {
    if (token === http.sessionToken) return
    http.sessionToken = token
    options.onSessionToken?.(token)
  }

  async function verify(body: VerifyBody, operation: ClientMethod = 'verifySignIn'): Promise<SignInResult> {
    const result = await http.send<SignInResult>({
      operation,
      method: 'POST',
      path: '/auth/siwx/verify',
      body,
      headers: http.bearer ? TOKEN_MODE : {},
    })
    if (result.sessionToken !== undefined) keepToken(result.sessionToken)
    return result
  }

  /**
   * Challenge (unless a message is given), signature, verify. A verify refused because the nonce or
   * the message lapsed while the wallet was signing carries a fresh challenge: signed once more.
   */
  async function signWith(account: WalletAccount, message?: string, again = true): Promise<SignInResult> {
    const { address, chainId } = account
    const text =
      message ??
      (
        await http.send<Challenge>({
          operation: 'signIn',
          path: '/auth/siwx/challenge',
          query: { address, chainId },
        })
      ).message
    if (text === undefined) throw new Error('The gateway gave no sign-in message for this wallet.')
    const signature = await account.sign(text)
    try {
      return await verify({ data: { chainId, accountAddress: address }, message: text, signature }, 'signIn')
    } catch (err) {
      const fresh = err instanceof GatewayProblem ? err.challenge?.message : undefined
      if (!again || fresh === undefined) throw err
      return signWith(account, fresh, false)
    }
  }

  /**
   * Cookie mode: the verify answer set a cookie, but a browser keeps none from a gateway on another
   * site than the page (SameSite=Lax), and says nothing. Reading the session tells.
   */
  async function checkCookieKept() {
    const session = await http.send<SessionView>({ operation: 'signIn', path: '/auth/session' })
    if (session.signedIn) return
    const page = browser.location?.origin ?? 'this page'
    throw clientProblem(
      'COOKIE_NOT_KEPT',
      `Signed in, but the browser did not keep the gateway's session cookie: the page (${page}) and the gateway (${baseUrl}) are on different sites, and browsers send a SameSite=Lax cookie only within one site. Open the page under the gateway's host name (for example both on localhost, or both on 127.0.0.1), or use token mode: createGatewayClient({ sessionMode: 'token' }).`,
      { status: 0, requestId: '', method: 'signIn' },
    )
  }

  /** Signs the wallet back in with the problem's challenge; rejects with the problem if it cannot. */
  function resign(problem: GatewayProblem): Promise<SignInResult> {
    const held = wallet
    if (!held) return Promise.reject(problem)
    resigning ??= (account ? Promise.resolve(account) : walletAccount(held))
      .then((signer) => {
        if (wallet === held) account = signer
        return signWith(signer, problem.challenge?.message)
      })
      .catch((err: unknown) => {
        throw new GatewayProblem(problem, { cause: err, method: problem.method })
      })
      .finally(() => {
        resigning = undefined
      })
    return resigning
  }

  const lapsed = (err: unknown): err is GatewayProblem =>
    err instanceof GatewayProblem && err.code === 'SESSION_EXPIRED' && wallet !== undefined

  /** A call; if the session lapsed and a wallet is held, one re-sign and one repeat of the same call. */
  async function call<T>(spec: Call): Promise<T> {
    try {
      return await http.send<T>(spec)
    } catch (err) {
      if (!lapsed(err)) throw err
      await resign(err)
      return http.send<T>(spec)
    }
  }

  const orderPath = (uuid: string) => `/v1/orders/${encodeURIComponent(uuid)}`

  return {
    listTokens: (filters = {}) => call({ operation: 'listTokens', path: '/v1/tokens', query: filters }),
    getToken: (id) => call({ operation: 'getToken', path: `/v1/tokens/${encodeURIComponent(id)}` }),
    listChains: () => call({ operation: 'listChains', path: '/v1/chains' }),
    getQuote: (params) => call({ operation: 'getQuote', path: '/v1/tokens/quote', query: params }),
    getSwapLimits: (params) =>
      call({ operation: 'getSwapLimits', path: '/v1/tokens/swap-limits', query: params }),
    createOrder: (body, { idempotencyKey } = {}) =>
      call({
        operation: 'createOrder',
        method: 'POST',
        path: '/v1/orders/create',
        body,
        headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
      }),
    getOrder: (uuid) => call({ operation: 'getOrder', path: orderPath(uuid) }),
    listOrders: (params = {}) => call({ operation: 'listOrders', path: '/v1/orders', query: params }),
    followOrder(uuid, handlers) {
      const EventSource = options.EventSource ?? browser.EventSource
      if (!EventSource)
        throw new TypeError('followOrder needs an EventSource: pass one to createGatewayClient.')
      return followOrder(
        {
          url: http.url(`/orders/${encodeURIComponent(uuid)}/status-stream`),
          EventSource,
          withCredentials: credentials === 'include',
          readOrder: () => http.send<Order>({ operation: 'followOrder', path: orderPath(uuid) }),
        },
        handlers,
      )
    },
    watchQuote(params, handlers) {
      const EventSource = options.EventSource ?? browser.EventSource
      if (!EventSource)
        throw new TypeError('watchQuote needs an EventSource: pass one to createGatewayClient.')
      const page = browser.document
      return watchQuote(
        {
          url: http.url('/v1/tokens/quote/stream', params),
          EventSource,
          withCredentials: credentials === 'include',
          readQuote: () => http.send({ operation: 'watchQuote', path: '/v1/tokens/quote', query: params }),
          ...(typeof page?.visibilityState === 'string' && page.addEventListener
            ? { page: page as PageVisibility }
            : {}),
        },
        handlers,
      )
    },
    followMyOrders(handlers) {
      const EventSource = options.EventSource ?? browser.EventSource
      if (!EventSource)
        throw new TypeError('followMyOrders needs an EventSource: pass one to createGatewayClient.')
      const probe: Call = { operation: 'followMyOrders', path: '/v1/orders', query: { limit: 1 } }
      return followMyOrders(
        {
          url: http.url('/v1/orders/stream'),
          EventSource,
          withCredentials: credentials === 'include',
          authorization: () => (http.sessionToken === undefined ? undefined : `Bearer ${http.sessionToken}`),
          async check() {
            try {
              await http.send(probe)
              return 'fine'
            } catch (err) {
              if (!lapsed(err)) throw err
              await resign(err)
              return 'resigned'
            }
          },
        },
        handlers,
      )
    },
    getChallenge: (params = {}) =>
      call({ operation: 'getChallenge', path: '/auth/siwx/challenge', query: params }),
    verifySignIn: (body) => verify(body),
    async refreshSession() {
      try {
        const renewed = await http.send<SignInResult>({
          operation: 'refreshSession',
          method: 'POST',
          path: '/auth/refresh',
          headers: http.bearer ? TOKEN_MODE : {},
        })
        if (renewed.sessionToken !== undefined) keepToken(renewed.sessionToken)
        return renewed
      } catch (err) {
        // A refused renewal carries a challenge: signing it is the renewal.
        if (!lapsed(err)) throw err
        return resign(err)
      }
    },
    getMe: () => call({ operation: 'getMe', path: '/auth/me' }),
    getSession: () => call({ operation: 'getSession', path: '/auth/session' }),
    async logout() {
      await http.send<void>({ operation: 'logout', method: 'POST', path: '/auth/logout' })
      keepToken(undefined)
      wallet = undefined
      account = undefined
    },
    async signIn(given = options.wallet, { chainId } = {}) {
      if (!given) throw new TypeError('signIn needs a wallet: pass one here or to createGatewayClient.')
      const signer = await walletAccount(given, chainId)
      const result = await signWith(signer)
      if (!http.bearer) await checkCookieKept()
      wallet = given
      account = signer
      return result
    },
    get sessionToken() {
      return http.sessionToken
    },
    ...pushMethods(call),
  }
}
