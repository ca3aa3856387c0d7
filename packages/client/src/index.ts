// swap-gateway-client: the typed client of the gateway's public API, for browsers, React Native and
// Node 20+. Runs on fetch and EventSource alone; its types are generated from the gateway's document.
export type { EventSourceConstructor, EventSourceLike, FollowHandlers, Following } from './follow.js'
export type { PageVisibility, QuoteHandlers, Watching } from './watch-quote.js'
export type { CreatedOrder, FollowingMyOrders, MyOrdersHandlers } from './follow-my-orders.js'
export {
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
  type SessionMode,
  type SignInOptions,
} from './gateway-client.js'
export type { Credentials, FetchLike } from './http.js'
export type { BrowserPushSubscription, PushMethods, PushRegistration } from './push.js'
export {
  CLIENT_CODES,
  type ClientCode,
  type ClientMethod,
  GatewayProblem,
  isProblemOf,
  type MethodProblem,
  type MethodProblemCode,
  type ProblemCode,
  type ProblemDocument,
} from './problem.js'
export type * from './types.js'
export type { Eip1193Provider, MessageSigner, Wallet } from './wallet.js'
