// A stream cut before its order's end (its instance replaced) and picked up by another instance: the
// reconnect is decided from the Last-Event-ID alone, so a plain EventSource always sees the final
// status, and stops for good once it has it.
import type { FetchLike } from 'eventsource'
import t from 'tap'
import { follow, STATUS_EVENT, STATUS_EVENTS, type StatusData } from '../helpers/sse.js'
import { streamGateway, subscribed } from './setup.js'

t.test('an instance replaced before the end: the other instance sends the end, then 204', async (t) => {
  const first = await streamGateway(t)
  const second = await streamGateway(t, { env: { UPSTREAM_URL: first.sandbox.url } })
  const uuid = await first.newOrder()

  // As a load balancer would: the first connection to the first instance, reconnects to the second
  // (held until the order has completed, so the reconnect finds it terminal).
  let connections = 0
  let release!: () => void
  const completed = new Promise<void>((resolve) => {
    release = resolve
  })
  const balancer: FetchLike = async (input, init) => {
    const target = connections++ === 0 ? first.url : second.url
    if (target === second.url) await completed
    return fetch(String(input).replace(first.url, target), init)
  }
  const f = follow<StatusData>(t, first.streamUrl(uuid), { events: STATUS_EVENTS, fetch: balancer })

  await f.until('the snapshot', () => f.events.length === 1)
  await subscribed(first.control, uuid)
  await first.app.close()
  await f.until('the stream cut by the shutdown', () => f.errors.length === 1)
  first.control.deposit(uuid, { amount: 100 })
  first.control.confirm(uuid)
  first.control.complete(uuid)
  release()

  await f.until('EventSource stops for good', () => f.es.readyState === f.es.CLOSED)
  t.same(
    f.events.map((e) => [e.type, e.data.status]),
    [
      ['snapshot', 'AWAITING_USER_DEPOSIT'],
      ['snapshot', 'COMPLETED'],
      [STATUS_EVENT, 'COMPLETED'],
    ],
    'the final status reached the client',
  )
  t.equal(f.errors.at(-1)?.code, 204, 'and the reconnect after it was answered 204')
  t.equal(connections, 3, 'the cut, the end, the 204')
})
