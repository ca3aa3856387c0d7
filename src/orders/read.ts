// Reading one order, coalesced: identical reads in flight share one upstream call, each caller keeping
// its own deadline. The status stream reads through here too. The upstream's answer for an unknown
// order is its generic 500 but for the casing of one word, which must not be branched on, so that
// answer is asked once more (within the deadline) before an order is called not found: a transient
// failure must not tell a user that their order does not exist.
import type { Clock } from '../clock.js'
import { GatewayError } from '../errors.js'
import type { CallContext, UpstreamClient, UpstreamReply } from '../upstream/client.js'
import { CheckedBodies } from '../upstream/checked-bodies.js'
import { Coalescer } from '../upstream/coalesce.js'
import { type Order, orderSchema } from '../upstream/schemas.js'

type OrderRead = UpstreamReply<Order> & { readAt: number }

/** Orders whose last body is remembered as checked (a few kB each): more than are followed at once. */
const CHECKED_ORDERS = 1_000

export class OrderReader {
  private readonly coalescer: Coalescer<OrderRead>
  private readonly checked = new CheckedBodies<Order>(CHECKED_ORDERS)

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly clock: Clock,
  ) {
    this.coalescer = new Coalescer(clock)
  }

  /** The order as the upstream has it now, and the moment it was read (epoch ms). */
  read(ctx: CallContext, uuid: string): Promise<OrderRead> {
    // Promise chains rather than async functions: an order read is mostly waiting, and each async
    // layer costs its own promise and turns.
    return this.coalescer.run(uuid, ctx, (shared) =>
      this.readOnce(shared, uuid).catch((err: unknown) => {
        if (!(err instanceof GatewayError) || err.code !== 'ORDER_NOT_FOUND') throw err
        shared.log.debug({ upstream: { operation: 'orderRead' } }, 'order not found: asking once more')
        return this.readOnce(shared, uuid)
      }),
    )
  }

  private readOnce(ctx: CallContext, uuid: string): Promise<OrderRead> {
    return this.upstream
      .call(ctx, {
        operation: 'orderRead',
        path: `/v1/orders/${encodeURIComponent(uuid)}`,
        schema: orderSchema,
        checked: this.checked,
      })
      .then((reply) => ({ ...reply, readAt: this.clock.now() }))
  }
}
