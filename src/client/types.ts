// The typed client's bodies, taken from the gateway's own zod schemas by `import type` only, so the
// built client carries no zod at run time and its types cannot drift from what the routes answer.
import type { z } from 'zod'
import type { Challenge, SessionView, SignInResult } from '../auth/answers.js'
import type { challengeQuery, verifyBody } from '../auth/schemas.js'
import type { tokensQuery } from '../catalog/schemas.js'
import type { OrderCreated } from '../orders/answers.js'
import type { historyQuery } from '../orders/history-route.js'
import type { createBody, quoteQuery, swapLimitsQuery } from '../orders/schemas.js'
import type { Problem } from '../edge/problem-schema.js'
import type { Snapshot, StatusUpdate } from '../stream/events.js'
import type {
  Blockchain,
  historySchema,
  meSchema,
  Order,
  OrderStatus,
  Quote,
  swapLimitsSchema,
  Token,
} from '../upstream/schemas.js'

export type {
  Blockchain,
  Challenge,
  Order,
  OrderCreated,
  OrderStatus,
  Problem,
  Quote,
  SessionView,
  SignInResult,
  Snapshot,
  StatusUpdate,
  Token,
}
export type SwapLimits = z.infer<typeof swapLimitsSchema>
export type OrderHistory = z.infer<typeof historySchema>
/** GET /auth/me: the upstream's user, unknown fields kept. */
export type Me = z.infer<typeof meSchema>

/**
 * A query parameter as callers write it: the text the schema reads, or the number or boolean that
 * text spells (`tradable: true`, `amount: 100`).
 */
type Param<T> = T extends 'true' | 'false' ? T | boolean : T extends string ? T | number : T
type QueryInput<S extends z.ZodType> = { [K in keyof z.input<S>]: Param<z.input<S>[K]> }

export type TokenFilters = QueryInput<typeof tokensQuery>
export type QuoteParams = QueryInput<typeof quoteQuery>
export type SwapLimitsParams = QueryInput<typeof swapLimitsQuery>
export type HistoryParams = QueryInput<typeof historyQuery>
export type ChallengeParams = QueryInput<typeof challengeQuery>
export type CreateOrderBody = z.input<typeof createBody>
export type VerifyBody = z.input<typeof verifyBody>

/** The problem document's members without its open index, so a misspelt member is a type error. */
export type ProblemMembers = { [K in keyof Problem as string extends K ? never : K]: Problem[K] }
