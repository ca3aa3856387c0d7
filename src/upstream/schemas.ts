// The upstream's documented bodies. Only documented fields are checked; loose objects keep the rest,
// because success bodies are passed through untouched. The sandbox keeps its own, deliberately
// independent copy (src/sandbox/resources.ts), so that the two readings of the spec check each other.
import { z } from 'zod'
import { builtOn, documented, ID_MAX } from '../edge/wire-types.js'

// The upstream's spec gives no limits on its fields: the bounds below are documented, not checked
// (edge/wire-types.ts, `documented`), so an answer beyond them is still passed on.
const id = () => documented(z.number().int(), { minimum: 1, maximum: ID_MAX })
const count = (maximum: number) => documented(z.number().int(), { minimum: 0, maximum })
const text = (maxLength: number) => documented(z.string(), { maxLength })
/** Names, symbols and labels. */
const NAME = 128
/** Addresses and transaction hashes on any chain: the longest are under 128 characters. */
const ADDRESS = 256
/** An ISO 8601 UTC date-time. */
const dateTime = () => documented(z.string(), { format: 'date-time', maxLength: 32 })
/** Pages, items and totals. */
const PAGE_COUNT = 2_147_483_647
/** The largest history page the gateway asks for (its `limit` parameter's bound). */
export const MAX_PAGE_SIZE = 100

export const ORDER_STATUSES = [
  'AWAITING_USER_DEPOSIT',
  'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
  'PROCESSING',
  'COMPLETED',
  'ERROR',
  'TIMED_OUT',
] as const
export const orderStatus = z
  .enum(ORDER_STATUSES)
  .meta({ id: 'OrderStatus', description: "An order's state; COMPLETED, ERROR and TIMED_OUT are terminal." })
export type OrderStatus = z.infer<typeof orderStatus>
export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['COMPLETED', 'ERROR', 'TIMED_OUT'])

export const blockchainSchema = z
  .looseObject({
    id: id(),
    name: text(NAME),
    network: text(32),
    neededConfirmations: count(1_000_000),
    depositsActive: z.boolean().describe('Whether deposits on this chain are accepted now.'),
  })
  .meta({ id: 'Blockchain', description: 'A chain, as the swap service describes it.' })
export type Blockchain = z.infer<typeof blockchainSchema>

export const tokenSchema = z
  .looseObject({
    id: id(),
    name: text(NAME),
    symbol: text(NAME),
    address: text(ADDRESS),
    decimals: count(255),
    blockchainId: id(),
    isBaseToken: z.boolean(),
    isStablecoin: z.boolean(),
    active: z.boolean(),
    blockchain: blockchainSchema,
  })
  .meta({ id: 'Token', description: 'A token of the catalog, with its chain.' })
export type Token = z.infer<typeof tokenSchema>
/** Over 2,000 tokens on 18 chains, as the upstream spec says. */
export const catalogSchema = documented(z.array(tokenSchema), { maxItems: 100_000 })

const nullableNumber = z.number().nullable()
const nullableText = (maxLength: number) => text(maxLength).nullable()

const tradePathLeg = z
  .looseObject({
    symbol: text(NAME).describe('Order-book pair symbol; compare case-insensitively.'),
    side: z.enum(['SELL', 'BUY']),
    inputToken: text(NAME),
    outputToken: text(NAME),
  })
  .meta({ id: 'TradePathLeg', description: 'An order-book leg behind the quote.' })

/** The fields every order carries, wherever the upstream shows it. */
export const orderFieldsSchema = z
  .looseObject({
    id: id(),
    uuid: documented(z.string(), { format: 'uuid', maxLength: 36 }).describe(
      'The public order id, and a bearer capability: anyone holding it can read the order.',
    ),
    status: orderStatus,
    timeout: dateTime().describe('ISO 8601 UTC: when the order expires without a deposit.'),
    intendedAmount: z.number(),
    intendedIsDeposit: z.boolean(),
    initialQuote: z.number(),
    depositTokenId: id(),
    settleTokenId: id(),
    receivingAddress: text(ADDRESS),
    depositAmount: nullableNumber,
    depositEstSettleAmount: nullableNumber,
    settleAmount: nullableNumber,
    minimalAmount: z.number(),
    maximalAmount: z.number(),
    exchange: text(NAME),
    senderDepositTx: nullableText(ADDRESS),
    exchangeWithdrawTx: nullableText(ADDRESS),
    exchangeWithdrawTxLink: documented(z.string(), { format: 'uri', maxLength: 2048 }).nullable(),
    tradePath: documented(z.array(tradePathLeg), { maxItems: 16 }),
    userId: documented(z.string(), { format: 'uuid', maxLength: 36 }).nullable(),
    createdAt: dateTime().describe('ISO 8601 UTC.'),
  })
  .meta({
    id: 'OrderFields',
    description: 'The fields every order carries (a history item adds its tokens).',
  })

const depositAddress = {
  walletAddress: text(ADDRESS).describe(
    "The order's own deposit address: send only the deposit token, within the bounds, before `timeout`.",
  ),
}
const expandedTokens = { depositToken: tokenSchema, settleToken: tokenSchema }

/** The upstream's create answer (the gateway adds the tokens). */
export const createdOrderSchema = orderFieldsSchema.extend(depositAddress)

/** An order read by uuid: its deposit address and its two tokens. */
export const orderSchema = builtOn(
  orderFieldsSchema,
  { ...depositAddress, ...expandedTokens },
  {
    id: 'Order',
    description: 'An order as a read by uuid answers it: `walletAddress` is where the deposit goes.',
  },
)
export type Order = z.infer<typeof orderSchema>

export const quoteSchema = z
  .looseObject({
    depositAmount: nullableNumber,
    settleAmount: z.number(),
    exchangeRate: z.number(),
    depositTokenUsdValue: nullableNumber,
  })
  .meta({ id: 'Quote', description: "The swap service's quote; fields it adds are passed through." })
export type Quote = z.infer<typeof quoteSchema>

/**
 * Swap limits: the upstream documents no fields, so any JSON object passes, and it is the one open
 * object of the document: no client may rely on the field names one upstream happens to use.
 */
export const swapLimitsSchema = z.record(text(NAME), z.unknown()).meta({
  id: 'SwapLimits',
  description:
    "The pair's limits: the swap service's body untouched. Its fields are not documented by the swap service; do not rely on their names.",
})

/** A history item: an order with its tokens, without its deposit address. */
export const historyItemSchema = builtOn(orderFieldsSchema, expandedTokens, {
  id: 'OrderHistoryItem',
  description: 'An order as history lists it: with its two tokens, without `walletAddress`.',
})

export const historySchema = z
  .looseObject({
    status: documented(z.number().int(), { minimum: 100, maximum: 599 }),
    items: documented(z.array(historyItemSchema), { maxItems: MAX_PAGE_SIZE }),
    meta: z.looseObject({
      currentPage: count(PAGE_COUNT),
      itemCount: count(MAX_PAGE_SIZE),
      itemsPerPage: count(MAX_PAGE_SIZE),
      totalPages: count(PAGE_COUNT),
      totalItems: count(PAGE_COUNT),
    }),
  })
  .meta({ id: 'OrderHistory', description: "A page of the signed-in user's orders." })

export const statusUpdateSchema = z.looseObject({
  orderId: documented(z.string(), { format: 'uuid', maxLength: 36 }),
  status: orderStatus,
  message: text(1024),
  updatedAt: dateTime(),
})

export const challengeSchema = z.looseObject({ nonce: z.string().min(1) })
export const tokensPairSchema = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
})
export const meSchema = z
  .looseObject({ id: text(NAME).describe("The user's id: `userId` on the orders they create.") })
  .meta({ id: 'Me', description: 'The signed-in user, as the swap service describes it.' })

/** The upstream's error envelope: branch on statusCode and message, never on `error`. */
export const envelopeSchema = z.looseObject({
  statusCode: z.number().int(),
  message: z.union([z.string(), z.array(z.string())]),
  error: z.string().optional(),
})
export type Envelope = z.infer<typeof envelopeSchema>
