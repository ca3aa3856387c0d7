// What the order routes answer beyond the upstream's own bodies (CONTRACT.md §5).
import type { z } from 'zod'
import { orderSchema, tokenSchema } from '../upstream/schemas.js'

/** The created order plus, additively, its two tokens from the catalog, as an order read carries them. */
export const orderCreated = orderSchema
  .extend({ depositToken: tokenSchema, settleToken: tokenSchema })
  .meta({ id: 'OrderCreated' })
export type OrderCreated = z.infer<typeof orderCreated>
