// A stream cut before its order's end (its instance replaced) and picked up by another instance: the
// reconnect is decided from the Last-Event-ID alone, so a plain EventSource always sees the final
// status, and stops for good once it has it.
import { EventSource, type FetchLike } from 'eventsource'
import t from 'tap'
import { STATUS_EVENT } from './follow.js'
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
  const es = new EventSource(first.streamUrl(uuid), { fetch: balancer })
  t.teardown(() => es.close())
  const events: Array<{ type: string; id: string; status: string }> = []
  const errors: Array<number | undefined> = []
  for (const type of ['snapshot', STATUS_EVENT])
    es.addEventListener(type, (e) =>
      events.push({ type, id: e.lastEventId, status: JSON.parse(e.data).status }),
    )
  es.addEventListener('error', (e) => errors.push(e.code))
  const until = async (what: string, pred: () => boolean) => {
    const deadline = Date.now() + 10_000
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(events)}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  await until('the snapshot', () => events.length === 1)
  await subscribed(first.control, uuid)
  await first.app.close()
  await until('the stream cut by the shutdown', () => errors.length === 1)
  first.control.deposit(uuid, { amount: 100 })
  first.control.confirm(uuid)
  first.control.complete(uuid)
  release()

  await until('EventSource stops for good', () => es.readyState === es.CLOSED)
  t.same(
    events.map((e) => [e.type, e.status]),
    [
      ['snapshot', 'AWAITING_USER_DEPOSIT'],
      ['snapshot', 'COMPLETED'],
      [STATUS_EVENT, 'COMPLETED'],
    ],
    'the final status reached the client',
  )
  t.equal(errors.at(-1), 204, 'and the reconnect after it was answered 204')
  t.equal(connections, 3, 'the cut, the end, the 204')
})
