import http from 'node:http'
import t from 'tap'
import { streamGateway } from './setup.js'

t.test(
  'a quiet stream carries a heartbeat comment every SSE_HEARTBEAT_MS, which EventSource ignores',
  async (t) => {
    const gw = await streamGateway(t, { env: { SSE_HEARTBEAT_MS: '40' } })
    const uuid = await gw.newOrder()
    const f = gw.follow(uuid)

    const text = await new Promise<string>((resolve, reject) => {
      let received = ''
      const req = http.get(gw.streamUrl(uuid), { agent: false }, (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          received += chunk
          if ((received.match(/^: heartbeat\n\n/gm) ?? []).length >= 3) {
            req.destroy()
            resolve(received)
          }
        })
      })
      req.on('error', reject)
    })
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
