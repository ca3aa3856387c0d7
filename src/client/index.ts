// swap-gateway/client: the typed client of the gateway's public API, for browsers and Node 20+.
// Runs on fetch and EventSource alone; its types come from the gateway's own schemas.
export type { EventSourceConstructor, EventSourceLike, FollowHandlers, Following } from './follow.js'
export {
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
  type SignInOptions,
} from './gateway-client.js'
export type { Credentials, FetchLike } from './http.js'
export {
  CLIENT_CODES,
  type ClientCode,
  GatewayProblem,
  type ProblemCode,
  type ProblemDocument,
} from './problem.js'
export type * from './types.js'
export type { Eip1193Provider } from './wallet.js'
