// The upstream's documented bodies. Only documented fields are checked; loose objects keep the rest,
// because success bodies are passed through untouched. The sandbox keeps its own, deliberately
// independent copy (src/sandbox/resources.ts), so that the two readings of the spec check each other.
import { z } from 'zod'
import { builtOn } from '../edge/wire-types.js'

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
    id: z.number().int(),
    name: z.string(),
    network: z.string(),
    neededConfirmations: z.number().int(),
    depositsActive: z.boolean().describe('Whether deposits on this chain are accepted now.'),
  })
  .meta({ id: 'Blockchain', description: 'A chain, as the swap service describes it.' })
export type Blockchain = z.infer<typeof blockchainSchema>

export const tokenSchema = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    symbol: z.string(),
    address: z.string(),
    decimals: z.number().int(),
    blockchainId: z.number().int(),
    isBaseToken: z.boolean(),
    isStablecoin: z.boolean(),
    active: z.boolean(),
    blockchain: blockchainSchema,
  })
  .meta({ id: 'Token', description: 'A token of the catalog, with its chain.' })
export type Token = z.infer<typeof tokenSchema>
export const catalogSchema = z.array(tokenSchema)

const nullableNumber = z.number().nullable()
const nullableString = z.string().nullable()

const tradePathLeg = z
  .looseObject({
    symbol: z.string().describe('Order-book pair symbol; compare case-insensitively.'),
    side: z.enum(['SELL', 'BUY']),
    inputToken: z.string(),
    outputToken: z.string(),
  })
  .meta({ id: 'TradePathLeg', description: 'An order-book leg behind the quote.' })

/** The fields every order carries, wherever the upstream shows it. */
export const orderFieldsSchema = z
  .looseObject({
    id: z.number().int(),
    uuid: z
      .string()
      .describe('The public order id, and a bearer capability: anyone holding it can read the order.'),
    status: orderStatus,
    timeout: z.string().describe('ISO 8601 UTC: when the order expires without a deposit.'),
    intendedAmount: z.number(),
    intendedIsDeposit: z.boolean(),
    initialQuote: z.number(),
    depositTokenId: z.number().int(),
    settleTokenId: z.number().int(),
    receivingAddress: z.string(),
    depositAmount: nullableNumber,
    depositEstSettleAmount: nullableNumber,
    settleAmount: nullableNumber,
    minimalAmount: z.number(),
    maximalAmount: z.number(),
    exchange: z.string(),
    senderDepositTx: nullableString,
    exchangeWithdrawTx: nullableString,
    exchangeWithdrawTxLink: nullableString,
    tradePath: z.array(tradePathLeg),
    userId: nullableString,
    createdAt: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({
    id: 'OrderFields',
    description: 'The fields every order carries (a history item adds its tokens).',
  })

const depositAddress = {
  walletAddress: z
    .string()
    .describe(
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
export const swapLimitsSchema = z.record(z.string(), z.unknown()).meta({
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
    status: z.number().int(),
    items: z.array(historyItemSchema),
    meta: z.looseObject({
      currentPage: z.number().int(),
      itemCount: z.number().int(),
      itemsPerPage: z.number().int(),
      totalPages: z.number().int(),
      totalItems: z.number().int(),
    }),
  })
  .meta({ id: 'OrderHistory', description: "A page of the signed-in user's orders." })

export const statusUpdateSchema = z.looseObject({
  orderId: z.string(),
  status: orderStatus,
  message: z.string(),
  updatedAt: z.string(),
})

export const challengeSchema = z.looseObject({ nonce: z.string().min(1) })
export const tokensPairSchema = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
})
export const meSchema = z
  .looseObject({ id: z.string().describe("The user's id: `userId` on the orders they create.") })
  .meta({ id: 'Me', description: 'The signed-in user, as the swap service describes it.' })

/** The upstream's error envelope: branch on statusCode and message, never on `error`. */
export const envelopeSchema = z.looseObject({
  statusCode: z.number().int(),
  message: z.union([z.string(), z.array(z.string())]),
  error: z.string().optional(),
})
export type Envelope = z.infer<typeof envelopeSchema>
