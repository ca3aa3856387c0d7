// createGatewayClient: one method per operation of the gateway (named as the OpenAPI operationIds),
// wallet sign-in over EIP-1193, and a lapsed session signed back in once without the caller noticing.
import { followOrder, type EventSourceConstructor, type FollowHandlers, type Following } from './follow.js'
import { type Call, type Credentials, type FetchLike, Http } from './http.js'
import { GatewayProblem } from './problem.js'
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
import { type Eip1193Provider, personalSign, type WalletAccount, walletAccount } from './wallet.js'

export interface GatewayClientOptions {
  /** The gateway's origin, such as `https://app.example`. Default: the page's origin in a browser. */
  baseUrl?: string
  /** The prefix of the public routes. Default `/api`. */
  apiPrefix?: string
  /** Default: the global fetch. */
  fetch?: FetchLike
  /** Default: the global EventSource (Node 20 has none: pass the `eventsource` package's class). */
  EventSource?: EventSourceConstructor
  /** fetch's credentials mode, for the session cookie. Default `include` (an allowed cross origin). */
  credentials?: Credentials
  /**
   * A session token from an earlier sign-in, sent as `Authorization: Bearer`. Giving one, or running
   * where there are no cookies (no `document`: Node, workers), puts the client in Bearer mode.
   */
  sessionToken?: string
}

export interface SignInOptions {
  /** The chain to sign in on; default the wallet's current chain (`eth_chainId`). */
  chainId?: number | string
}

export interface GatewayClient {
  listTokens(filters?: TokenFilters): Promise<Token[]>
  getToken(id: number | string): Promise<Token>
  listChains(): Promise<Blockchain[]>
  getQuote(params: QuoteParams): Promise<Quote>
  getSwapLimits(params: SwapLimitsParams): Promise<SwapLimits>
  /** With an `idempotencyKey`, a repeat (a retry after a lost answer) never creates a second order. */
  createOrder(body: CreateOrderBody, options?: { idempotencyKey?: string }): Promise<OrderCreated>
  getOrder(uuid: string): Promise<Order>
  listOrders(params?: HistoryParams): Promise<OrderHistory>
  followOrder(uuid: string, handlers: FollowHandlers): Following
  getChallenge(params?: ChallengeParams): Promise<Challenge>
  verifySignIn(body: VerifyBody): Promise<SignInResult>
  /** Renews the session; holding a wallet from signIn, a refused renewal is one signature instead. */
  refreshSession(): Promise<SignInResult>
  getMe(): Promise<Me>
  getSession(): Promise<SessionView>
  logout(): Promise<void>
  /** Sign-in with one wallet signature; the client keeps the provider to sign again when it lapses. */
  signIn(provider: Eip1193Provider, options?: SignInOptions): Promise<SignInResult>
  /** The Bearer session token held in Bearer mode (to keep across restarts), else undefined. */
  readonly sessionToken: string | undefined
}

interface Browserish {
  location?: { origin?: string }
  document?: unknown
  EventSource?: EventSourceConstructor
}
const browser = globalThis as Browserish

const TOKEN_MODE = { 'x-session-mode': 'token' }

export function createGatewayClient(options: GatewayClientOptions = {}): GatewayClient {
  const baseUrl = (options.baseUrl ?? browser.location?.origin)?.replace(/\/+$/, '')
  if (!baseUrl) throw new TypeError('createGatewayClient needs a baseUrl outside a browser page.')
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const credentials = options.credentials ?? 'include'
  const http = new Http({
    baseUrl,
    apiPrefix: options.apiPrefix ?? '/api',
    fetch: fetchImpl,
    credentials,
    bearer: options.sessionToken !== undefined || browser.document === undefined,
    sessionToken: options.sessionToken,
  })
  /** The wallet of the last signIn, to sign again when the session lapses. */
  let wallet: (WalletAccount & { provider: Eip1193Provider }) | undefined
  /** One re-sign at a time: calls that lapse together share one wallet prompt. */
  let resigning: Promise<SignInResult> | undefined

  async function verify(body: VerifyBody): Promise<SignInResult> {
    const result = await http.send<SignInResult>({
      method: 'POST',
      path: '/auth/siwx/verify',
      body,
      headers: http.bearer ? TOKEN_MODE : {},
    })
    if (result.sessionToken !== undefined) http.sessionToken = result.sessionToken
    return result
  }

  async function signWith(account: WalletAccount & { provider: Eip1193Provider }, message?: string) {
    const { address, chainId, provider } = account
    const text =
      message ??
      (await http.send<Challenge>({ path: '/auth/siwx/challenge', query: { address, chainId } })).message
    if (text === undefined) throw new Error('The gateway gave no sign-in message for this wallet.')
    const signature = await personalSign(provider, address, text)
    return verify({ data: { chainId, accountAddress: address }, message: text, signature })
  }

  /** Signs the wallet back in with the problem's challenge; rejects with the problem if it cannot. */
  function resign(problem: GatewayProblem): Promise<SignInResult> {
    const account = wallet
    if (!account) return Promise.reject(problem)
    resigning ??= signWith(account, problem.challenge?.message)
      .catch((err: unknown) => {
        throw new GatewayProblem(problem, { cause: err })
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

  return {
    listTokens: (filters = {}) => call({ path: '/v1/tokens', query: filters }),
    getToken: (id) => call({ path: `/v1/tokens/${encodeURIComponent(id)}` }),
    listChains: () => call({ path: '/v1/chains' }),
    getQuote: (params) => call({ path: '/v1/tokens/quote', query: params }),
    getSwapLimits: (params) => call({ path: '/v1/tokens/swap-limits', query: params }),
    createOrder: (body, { idempotencyKey } = {}) =>
      call({
        method: 'POST',
        path: '/v1/orders/create',
        body,
        headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
      }),
    getOrder: (uuid) => call({ path: `/v1/orders/${encodeURIComponent(uuid)}` }),
    listOrders: (params = {}) => call({ path: '/v1/orders', query: params }),
    followOrder(uuid, handlers) {
      const EventSource = options.EventSource ?? browser.EventSource
      if (!EventSource)
        throw new TypeError('followOrder needs an EventSource: pass one to createGatewayClient.')
      const path = `/orders/${encodeURIComponent(uuid)}/status-stream`
      return followOrder(
        {
          url: http.url(path),
          EventSource,
          withCredentials: credentials === 'include',
          readOrder: () => http.send<Order>({ path: `/v1/orders/${encodeURIComponent(uuid)}` }),
        },
        handlers,
      )
    },
    getChallenge: (params = {}) => call({ path: '/auth/siwx/challenge', query: params }),
    verifySignIn: verify,
    async refreshSession() {
      try {
        const renewed = await http.send<SignInResult>({
          method: 'POST',
          path: '/auth/refresh',
          headers: http.bearer ? TOKEN_MODE : {},
        })
        if (renewed.sessionToken !== undefined) http.sessionToken = renewed.sessionToken
        return renewed
      } catch (err) {
        // A refused renewal carries a challenge: signing it is the renewal.
        if (!lapsed(err)) throw err
        return resign(err)
      }
    },
    getMe: () => call({ path: '/auth/me' }),
    getSession: () => call({ path: '/auth/session' }),
    async logout() {
      await http.send<void>({ method: 'POST', path: '/auth/logout' })
      http.sessionToken = undefined
      wallet = undefined
    },
    async signIn(provider, { chainId } = {}) {
      const account = { ...(await walletAccount(provider, chainId)), provider }
      const result = await signWith(account)
      wallet = account
      return result
    },
    get sessionToken() {
      return http.sessionToken
    },
  }
}
