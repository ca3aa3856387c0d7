// The upstream's documented bodies. Only documented fields are checked; loose objects keep the rest,
// because success bodies are passed through untouched. The sandbox keeps its own, deliberately
// independent copy (src/sandbox/resources.ts), so that the two readings of the spec check each other.
import { z } from 'zod'

export const ORDER_STATUSES = [
  'AWAITING_USER_DEPOSIT',
  'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
  'PROCESSING',
  'COMPLETED',
  'ERROR',
  'TIMED_OUT',
] as const
export const orderStatus = z.enum(ORDER_STATUSES)
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

export const orderSchema = z
  .looseObject({
    id: z.number().int(),
    uuid: z.string(),
    status: orderStatus,
    timeout: z.string(),
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
    tradePath: z.array(z.looseObject({ symbol: z.string(), side: z.string() })),
    userId: nullableString,
    createdAt: z.string(),
    walletAddress: z.string().optional(),
    depositToken: tokenSchema.optional(),
    settleToken: tokenSchema.optional(),
  })
  .meta({ id: 'Order', description: 'An order; `walletAddress` is where the deposit goes.' })
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

/** Swap limits: the upstream documents no fields, so any JSON object passes. */
export const swapLimitsSchema = z
  .looseObject({})
  .meta({ id: 'SwapLimits', description: "The pair's limits, the swap service's body untouched." })

export const historySchema = z
  .looseObject({
    status: z.number().int(),
    items: z.array(orderSchema),
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
export const meSchema = z.looseObject({ id: z.string() })

/** The upstream's error envelope: branch on statusCode and message, never on `error`. */
export const envelopeSchema = z.looseObject({
  statusCode: z.number().int(),
  message: z.union([z.string(), z.array(z.string())]),
  error: z.string().optional(),
})
export type Envelope = z.infer<typeof envelopeSchema>
