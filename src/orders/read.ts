// Reading one order, coalesced: identical reads in flight share one upstream call. The status stream
// reads through here too.
import type { Clock } from '../clock.js'
import type { CallContext, UpstreamClient, UpstreamReply } from '../upstream/client.js'
import { Coalescer } from '../upstream/coalesce.js'
import { type Order, orderSchema } from '../upstream/schemas.js'

export class OrderReader {
  private readonly coalescer = new Coalescer<UpstreamReply<Order> & { readAt: number }>()

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly clock: Clock,
  ) {}

  /** The order as the upstream has it now, and the moment it was read (epoch ms). */
  read(ctx: CallContext, uuid: string) {
    return this.coalescer.run(uuid, async () => {
      const reply = await this.upstream.call(ctx, {
        operation: 'orderRead',
        path: `/v1/orders/${encodeURIComponent(uuid)}`,
        schema: orderSchema,
      })
      return { ...reply, readAt: this.clock.now() }
    })
  }
}
