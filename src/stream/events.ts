// The status stream's events (CONTRACT.md §6), as data: `snapshot` carries the order, and
// `orders:status-update` the upstream's update plus the order re-read after it.
import { z } from 'zod'
import { orderSchema, statusUpdateSchema } from '../upstream/schemas.js'

export const SNAPSHOT_EVENT = 'snapshot'
export const STATUS_EVENT = 'orders:status-update'

export const snapshotEvent = orderSchema.meta({ id: 'Snapshot' })
export type Snapshot = z.infer<typeof snapshotEvent>

export const statusUpdateEvent = statusUpdateSchema
  .extend({ order: orderSchema.optional().describe('The full order, re-read after the transition.') })
  .meta({ id: 'StatusUpdate' })
export type StatusUpdate = z.infer<typeof statusUpdateEvent>
