// Reconnecting with Last-Event-ID, the run shared by the in-memory log (reconnect.test.ts) and the
// Redis one (fleet.test.ts): the events missed, in order and once each, while the user's log still
// keeps them (WALLET_EVENTS_RETAIN_MS); a fresh snapshot for an id from before that, an id the log does
// not know, or none.
import type { Test } from 'tap'
import { events } from '../helpers/sse.js'
import { orderEvent, type WalletGateway } from './setup.js'

export const RETAIN_MS = 60_000

/** The events of a raw stream's text: [event, id, order uuid]. */
const brief = (text: string) =>
  events(text).map((e) => {
    const data = JSON.parse(e.data) as { uuid?: string; orderId?: string }
    return [e.event, e.id, data.uuid ?? data.orderId ?? '']
  })

export async function reconnects(t: Test, open: WalletGateway, publishOn: WalletGateway) {
  const alice = await open.user()
  const orders = [] as string[]
  const publish = async () => {
    const order = await publishOn.createOrder(alice.token)
    orders.push(order.uuid)
    await publishOn.app.orderEvents.publish(orderEvent(order))
  }

  const first = await open.raw(alice.auth)
  const snapshot = events(await first.first())[0]!
  t.equal(snapshot.event, 'snapshot')
  t.equal(snapshot.id, '', 'a snapshot before any event resets the id: a reconnect starts afresh')
  for (let i = 0; i < 3; i++) await publish()
  const seen = brief(await first.until('three events', (s) => events(s).length === 4)).slice(1)
  first.close()
  t.same(
    seen.map(([e, , uuid]) => [e, uuid]),
    orders.map((uuid) => ['order-created', uuid]),
  )
  await publish()
  await publish()

  const resumed = await open.raw({ ...alice.auth, 'last-event-id': seen[1]![1]! })
  const replay = brief(await resumed.until('the missed events', (s) => events(s).length === 3))
  t.same(
    replay.map(([e, , uuid]) => [e, uuid]),
    orders.slice(2).map((uuid) => ['order-created', uuid]),
    'the events after the last one it had, in order, and no snapshot',
  )
  await publish()
  const live = brief(await resumed.until('the next live event', (s) => events(s).length === 4))
  t.equal(live.at(-1)![2], orders.at(-1), 'then live again')
  t.equal(new Set(live.map((e) => e[1])).size, 4, 'each once')
  resumed.close()

  const latest = live.at(-1)![1]!
  const caughtUp = await open.raw({ ...alice.auth, 'last-event-id': latest })
  await publish()
  t.same(
    brief(await caughtUp.until('one event', (s) => events(s).length === 1)).map(([e, , uuid]) => [e, uuid]),
    [['order-created', orders.at(-1)]],
    'a reconnect that missed nothing gets the next event only',
  )
  const newest = brief(caughtUp.text()).at(-1)![1]!
  caughtUp.close()

  for (const [why, id] of [
    ['an id the log never gave', `${open.clock.now()}-999`],
    ['a malformed id', 'not-an-id'],
  ]) {
    const again = await open.raw({ ...alice.auth, 'last-event-id': id! })
    const fresh = events(await again.first())[0]!
    t.equal(fresh.event, 'snapshot', `${why}: a fresh snapshot`)
    t.equal(JSON.parse(fresh.data).orders.length, orders.length)
    t.equal(fresh.id, newest, "its id is the log's newest")
    again.close()
  }

  open.clock.advance(RETAIN_MS + 1)
  if (publishOn.clock !== open.clock) publishOn.clock.advance(RETAIN_MS + 1)
  const tooOld = await open.raw({ ...alice.auth, 'last-event-id': latest })
  t.equal(events(await tooOld.first())[0]!.event, 'snapshot', 'an id from before the retention: a snapshot')
  tooOld.close()
}
