import t from 'tap'
import { heartbeats, readRaw } from '../helpers/sse.js'
import { streamGateway } from '../status-stream/setup.js'

t.test(
  'a quiet stream carries a heartbeat comment every SSE_HEARTBEAT_MS, which EventSource ignores',
  async (t) => {
    const gw = await streamGateway(t, { env: { SSE_HEARTBEAT_MS: '40' } })
    const uuid = await gw.newOrder()
    const f = gw.follow(uuid)

    const raw = await readRaw(gw.streamUrl(uuid))
    const text = await raw.until('three heartbeats', (text) => heartbeats(text) >= 3)
    raw.close()
    t.match(text, /^retry: \d+\nevent: snapshot\n/, 'the snapshot first')
    t.match(text, /\n\n: heartbeat\n\n: heartbeat\n\n: heartbeat\n\n/, 'then comment lines')

    await f.until('a few beats', () => f.events.length === 1 && f.opens === 1)
    t.same(
      f.events.map((e) => e.type),
      ['snapshot'],
      'no event for a heartbeat',
    )
    t.equal(f.es.readyState, f.es.OPEN)
  },
)
