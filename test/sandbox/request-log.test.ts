import t from 'tap'
import { RequestLog } from '../../src/sandbox/recorder.js'

const request = (n: number) =>
  ({ method: 'GET', url: `/v1/orders/${n}`, headers: { 'x-n': String(n) } }) as never

t.test('the request log keeps the latest requests only, trimmed in place', async (t) => {
  const log = new RequestLog(3)
  const entries = log.entries
  for (let n = 1; n <= 5; n++) log.record(request(n), null, n)
  t.same(
    log.entries.map((e) => e.at),
    [1, 2, 3, 4, 5],
    'below twice the limit, nothing is dropped',
  )
  log.record(request(6), null, 6)
  t.same(
    log.entries.map((e) => e.at),
    [4, 5, 6],
    'at twice the limit, only the latest `limit` stay',
  )
  t.equal(log.entries, entries, 'the same array: references held by tests stay current')
  t.equal(log.entries.at(-1)?.url, '/v1/orders/6')
})
