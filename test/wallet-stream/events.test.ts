// After the snapshot: `order-created` for each order the user creates and `orders:status-update` for
// each change of any of the user's orders, as the watch publishes them; never another user's order,
// never an anonymous one; each event once, even when the watch reports it twice.
import t from 'tap'
import { type Received } from '../helpers/sse.js'
import { orderEvent, walletGateway } from './setup.js'

t.test("each user's stream carries the events of that user's orders only", async (t) => {
  const gw = await walletGateway(t)
  const [alice, bob] = [await gw.user(), await gw.user()]
  const aliceStream = gw.follow(alice.auth)
  const bobStream = gw.follow(bob.auth)
  await aliceStream.until('her snapshot', () => aliceStream.events.length === 1)
  await bobStream.until('his snapshot', () => bobStream.events.length === 1)

  const hers = await gw.createOrder(alice.token)
  const his = await gw.createOrder(bob.token)
  const anonymous = await gw.createOrder()
  await gw.app.orderEvents.publish(orderEvent(hers))
  await gw.app.orderEvents.publish(orderEvent(his))
  await gw.app.orderEvents.publish(orderEvent(anonymous))
  gw.sandbox.control.deposit(hers.uuid)
  const deposited = await gw.readOrder(hers.uuid)
  await gw.app.orderEvents.publish(orderEvent(deposited, 'AWAITING_DEPOSIT'))
  // The watch may report an event again after a crash: it reaches the stream once.
  await gw.app.orderEvents.publish(orderEvent(deposited, 'AWAITING_DEPOSIT'))
  gw.sandbox.control.deposit(his.uuid)
  await gw.app.orderEvents.publish(orderEvent(await gw.readOrder(his.uuid), 'AWAITING_DEPOSIT'))

  await aliceStream.until('her two events', () => aliceStream.events.length >= 3)
  await bobStream.until('his two events', () => bobStream.events.length >= 3)
  // Anything else would have arrived by now: one more event of hers, published last, comes next.
  const late = await gw.createOrder(alice.token)
  await gw.app.orderEvents.publish(orderEvent(late))
  await aliceStream.until('her last event', () => aliceStream.events.length >= 4)

  const brief = (e: Received) => [e.type, (e.data.uuid ?? e.data.orderId) as string]
  t.same(
    aliceStream.events.slice(1).map(brief),
    [
      ['order-created', hers.uuid],
      ['orders:status-update', hers.uuid],
      ['order-created', late.uuid],
    ],
    'her created order, its status change once, her later order: nothing of his, nothing anonymous',
  )
  t.same(
    bobStream.events.slice(1).map(brief),
    [
      ['order-created', his.uuid],
      ['orders:status-update', his.uuid],
    ],
    'his events only',
  )

  const created = aliceStream.events[1]!.data
  t.match(created, { uuid: hers.uuid, userId: alice.userId, event: 'order-created' }, 'the order itself')
  t.ok(created.walletAddress, 'with its deposit address, as create answered it')
  const update = aliceStream.events[2]!.data
  t.match(
    update,
    {
      orderId: hers.uuid,
      status: deposited.status,
      message: String,
      updatedAt: String,
      order: { uuid: hers.uuid, status: deposited.status },
      event: 'orders:status-update',
    },
    "the status stream's update fields, with the order",
  )
  const ids = aliceStream.events.map((e) => e.id)
  t.ok(
    ids.slice(1).every((id) => /^\d+-\d+$/.test(id)),
    'every event has an id',
  )
  t.equal(new Set(ids).size, ids.length, 'distinct ids')
})
