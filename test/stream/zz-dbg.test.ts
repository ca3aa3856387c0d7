import t from 'tap'
import { streamGateway } from './setup.js'
t.test('dbg', async (t) => {
  const gw = await streamGateway(t, { sandbox: { now: () => Date.now() - 3600_000 } })
  const uuid = await gw.newOrder()
  const f = gw.follow(uuid)
  await f.until('the snapshot', () => f.events.length === 1)
  await new Promise((r) => setTimeout(r, 300))
  console.log('sandbox now', gw.control.now(), Date.now())
  gw.control.deposit(uuid)
  await f.until('dep', () => f.events.length === 2)
  console.log(JSON.stringify(f.events.map(e => [e.id, e.data.updatedAt])))
})
