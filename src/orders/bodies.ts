// What the order routes answer beyond the upstream's own bodies (docs/api.md, "Pricing and orders").
import type { z } from 'zod'
import { builtOn } from '../edge/wire-types.js'
import { orderSchema } from '../upstream/schemas.js'

/** The created order plus, additively, its two tokens from the catalog: the body an order read has. */
export const orderCreated = builtOn(
  orderSchema,
  {},
  {
    id: 'OrderCreated',
    description:
      "The created order: the upstream's, with its deposit address (`walletAddress`), plus its two tokens from the catalog, as a read of the order carries them.",
  },
)
export type OrderCreated = z.infer<typeof orderCreated>
