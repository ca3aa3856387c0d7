// The client's public types, read from the types generated from the gateway's OpenAPI document
// (openapi-types.ts, `npm run client:types`): the bodies are the document's named schemas, the
// parameters its operations' own, so the client cannot drift from what the routes declare. Every
// documented field has its documented type and optionality, and no body but the swap limits (whose
// fields the swap service does not document) is open to fields it does not name.
import type { components, operationEvents, operationProblems, operations } from './openapi-types.js'

type Schemas = components['schemas']
type Schema<N extends keyof Schemas> = Schemas[N]

export type Blockchain = Schemas['Blockchain']
export type Token = Schemas['Token']
export type OrderStatus = Schemas['OrderStatus']
export type TradePathLeg = Schemas['TradePathLeg']
// Interfaces rather than aliases of the generated intersections, so editors and compile errors name
// them (`Property 'depositAddress' does not exist on type 'Order'`).
/* eslint-disable @typescript-eslint/no-empty-object-type */
/** An order read by uuid: with its deposit address (`walletAddress`) and its two tokens. */
export interface Order extends Schema<'Order'> {}
/** The created order: the same fields as an order read. */
export interface OrderCreated extends Schema<'OrderCreated'> {}
/** An order as history lists it: its tokens, no `walletAddress`. */
export interface OrderHistoryItem extends Schema<'OrderHistoryItem'> {}
/** The status stream's first event: the order. */
export interface Snapshot extends Schema<'Snapshot'> {}
/* eslint-enable @typescript-eslint/no-empty-object-type */
export type OrderHistory = Schemas['OrderHistory']
export type Quote = Schemas['Quote']
/** The upstream's swap limits, untouched: its fields are not documented, so none is typed. */
export type SwapLimits = Schemas['SwapLimits']
/** GET /auth/me: the signed-in user, as documented (`id`). */
export type Me = Schemas['Me']
export type Challenge = Schemas['Challenge']
/** Who is signed in: discriminated on `signedIn`, then on `expired`. */
export type SessionView = Schemas['Session']
export type SignInResult = Schemas['SignInResult']
/** A live quote's `quote` event: the quote, and when the gateway priced it (`quotedAt`). */
export type LiveQuote = Schemas['LiveQuote']
/** A status change, with the order re-read after it. */
export type StatusUpdate = Schemas['StatusUpdate']
/** The problem document every failure answers. */
export type Problem = Schemas['Problem']
export type CreateOrderBody = Schemas['CreateOrderBody']
export type VerifyBody = Schemas['VerifySignInBody']
/** `{ publicKey }`: the gateway's VAPID public key, base64url. */
export type PushPublicKey = operations['getPushPublicKey']['responses'][200]['content']['application/json']
/** A browser's `PushSubscription.toJSON()`, as the gateway takes it. */
export type PushSubscriptionBody =
  operations['subscribeOrderPush']['requestBody']['content']['application/json']
/** The answer to a subscription: the order's id and its status now. */
export type PushSubscribed = operations['subscribeOrderPush']['responses'][201]['content']['application/json']

/** The gateway's operations, by operationId (the document's webhooks are sent by it, not called). */
export type OperationId = keyof operations & keyof operationProblems
/** The problem codes an operation can answer. */
export type OperationProblemCode<O extends OperationId> = operationProblems[O]
/** A stream's events, by name, with their data. */
export type StreamEvents<O extends keyof operationEvents> = operationEvents[O]

/**
 * A query parameter as callers write it: its type, or text, which the gateway validates as it
 * validates any query (`amount: input.value`, `tradable: 'true'`).
 */
type Param<T> = T extends boolean ? T | 'true' | 'false' : T extends number ? T | string : T
type QueryOf<O extends OperationId> = NonNullable<operations[O]['parameters']['query']>
type QueryInput<O extends OperationId> = { [K in keyof QueryOf<O>]: Param<QueryOf<O>[K]> }

export type TokenFilters = QueryInput<'listTokens'>
export type QuoteParams = QueryInput<'getQuote'>
/** The pair, and any other parameter, which the gateway forwards to the swap service as given. */
export type SwapLimitsParams = QueryInput<'getSwapLimits'> &
  Record<string, string | number | boolean | undefined>
export type HistoryParams = QueryInput<'listOrders'>
/** `chainId` as a number (`1`) or as the text the gateway takes (`1`, `eip155:1`). */
export type ChallengeParams = Omit<QueryInput<'getChallenge'>, 'chainId'> & { chainId?: string | number }
