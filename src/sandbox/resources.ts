// The upstream's documented resources. Every type the sandbox serves is inferred from these
// schemas, and the conformance tests parse responses with them (strictly) to prove field presence.
// A deliberate independent copy of the gateway's reading (src/upstream/schemas.ts): the sandbox
// stands in for the upstream, so it reads the spec on its own (strict, where the gateway's schemas
// are loose); a misreading on one side then fails a test instead of agreeing with itself.
import { z } from 'zod'

export const blockchainSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  network: z.string(),
  neededConfirmations: z.number().int(),
  depositsActive: z.boolean(),
})
export type Blockchain = z.infer<typeof blockchainSchema>

export const tokenSchema = z.object({
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
export type Token = z.infer<typeof tokenSchema>

export const orderStatusSchema = z.enum([
  'AWAITING_USER_DEPOSIT',
  'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
  'PROCESSING',
  'COMPLETED',
  'ERROR',
  'TIMED_OUT',
])
export type OrderStatus = z.infer<typeof orderStatusSchema>

export const tradePathLegSchema = z.object({
  symbol: z.string(),
  side: z.enum(['SELL', 'BUY']),
  inputToken: z.string(),
  outputToken: z.string(),
})
export type TradePathLeg = z.infer<typeof tradePathLegSchema>

/** The fields every Order representation carries (create, get-by-uuid and history alike). */
export const orderSchema = z.object({
  id: z.number().int(),
  uuid: z.uuid(),
  status: orderStatusSchema,
  timeout: z.iso.datetime(),
  intendedAmount: z.number(),
  intendedIsDeposit: z.boolean(),
  initialQuote: z.number(),
  depositTokenId: z.number().int(),
  settleTokenId: z.number().int(),
  receivingAddress: z.string(),
  depositAmount: z.number().nullable(),
  depositEstSettleAmount: z.number().nullable(),
  settleAmount: z.number().nullable(),
  minimalAmount: z.number(),
  maximalAmount: z.number(),
  exchange: z.string(),
  senderDepositTx: z.string().nullable(),
  exchangeWithdrawTx: z.string().nullable(),
  exchangeWithdrawTxLink: z.string().nullable(),
  tradePath: z.array(tradePathLegSchema),
  userId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
})
export type Order = z.infer<typeof orderSchema>

export const createdOrderSchema = orderSchema.extend({ walletAddress: z.string() })
export type CreatedOrder = z.infer<typeof createdOrderSchema>

export const orderDetailsSchema = createdOrderSchema.extend({
  depositToken: tokenSchema,
  settleToken: tokenSchema,
})
export type OrderDetails = z.infer<typeof orderDetailsSchema>

export const historyItemSchema = orderSchema.extend({ depositToken: tokenSchema, settleToken: tokenSchema })
export type HistoryItem = z.infer<typeof historyItemSchema>

export const statusEventSchema = z.object({
  orderId: z.uuid(),
  status: orderStatusSchema,
  message: z.literal('order update'),
  updatedAt: z.iso.datetime(),
})
export type StatusEvent = z.infer<typeof statusEventSchema>
