// The status stream's events (docs/stream.md), as data: `snapshot` carries the order, and
// `orders:status-update` the upstream's update plus the order re-read after it.
import { z } from 'zod'
import { builtOn } from '../edge/wire-types.js'
import { eventTag } from '../sse/event-tag.js'
import { orderSchema, statusUpdateSchema } from '../upstream/schemas.js'

export const SNAPSHOT_EVENT = 'snapshot'
export const STATUS_EVENT = 'orders:status-update'

export const snapshotEvent = builtOn(orderSchema, eventTag(SNAPSHOT_EVENT), {
  id: 'Snapshot',
  description: 'The `snapshot` event: the order as a read by uuid answers it, named.',
})
export type Snapshot = z.infer<typeof snapshotEvent>

export const statusUpdateEvent = statusUpdateSchema
  .extend({
    order: orderSchema
      .optional()
      .describe('The full order, re-read after the transition (absent when it could not be read).'),
    ...eventTag(STATUS_EVENT),
  })
  .meta({
    id: 'StatusUpdate',
    description: "The `orders:status-update` event: the upstream's update, plus the order re-read after it.",
  })
export type StatusUpdate = z.infer<typeof statusUpdateEvent>
