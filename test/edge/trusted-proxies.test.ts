// TRUST_PROXY names the proxies; behind them each client is keyed by its own address, and a client
// that connects directly cannot pick its key with X-Forwarded-For. Over real sockets: the proxy is a
// second loopback address (127.0.0.2), the direct client the usual one.
import { request } from 'node:http'
import t from 'tap'
import { loadConfig } from '../../src/config.js'
import { startGateway } from '../helpers/gateway.js'

const PROXY = '127.0.0.2'

/** GET path from `localAddress`, with `headers`; the status. */
function get(url: string, path: string, localAddress: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    const req = request(`${url}${path}`, { localAddress, headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}

t.test(
  'TRUST_PROXY: addresses, ranges or true; a bare hop count is refused naming the variable',
  async (t) => {
    t.equal(loadConfig({}).server.trustProxy, false)
    t.equal(loadConfig({ TRUST_PROXY: 'true' }).server.trustProxy, true)
    t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8, ::1, loopback' }).server.trustProxy, [
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
      '::1',
      'loopback',
    ])
    for (const bad of ['1', '2', '10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/8', '::1/129'])
      t.throws(
        () => loadConfig({ TRUST_PROXY: bad }),
        { name: 'ConfigError', message: /TRUST_PROXY: .*(addresses or CIDR ranges)/ },
        bad,
      )
    t.throws(() => loadConfig({ TRUST_PROXY: '1' }), { message: /TRUST_PROXY: a hop count/ })
  },
)

t.test(
  'behind a trusted proxy each client is keyed by its own address; a direct one cannot choose',
  async (t) => {
    const gw = await startGateway(t, {
      listen: true,
      env: { TRUST_PROXY: PROXY, RATE_LIMITS: '{"catalog":{"max":1,"timeWindow":"1 minute"}}' },
    })
    const path = '/api/v1/chains'
    // Two clients behind the proxy: one bucket each.
    t.equal(await get(gw.url, path, PROXY, { 'x-forwarded-for': '198.51.100.1' }), 200)
    t.equal(await get(gw.url, path, PROXY, { 'x-forwarded-for': '198.51.100.1' }), 429, 'the first is spent')
    t.equal(await get(gw.url, path, PROXY, { 'x-forwarded-for': '198.51.100.2' }), 200, 'the second is not')
    // A client prepending an address of its choice: the proxy's own hop is what counts.
    t.equal(
      await get(gw.url, path, PROXY, { 'x-forwarded-for': '198.51.100.2, 198.51.100.3' }),
      200,
      'keyed by the address the proxy saw (198.51.100.3), not the one the client wrote',
    )
    // A direct client: its header is ignored, in both directions.
    t.equal(
      await get(gw.url, path, '127.0.0.1', { 'x-forwarded-for': '198.51.100.2' }),
      200,
      "not counted in another client's spent bucket",
    )
    t.equal(
      await get(gw.url, path, '127.0.0.1', { 'x-forwarded-for': '198.51.100.77' }),
      429,
      'and a fresh address in the header does not give it a fresh bucket',
    )
    const clients = gw.logs
      .lines()
      .filter((l) => l.msg === 'request completed')
      .map((l) => l.client)
    t.same(
      clients,
      ['198.51.100.1', '198.51.100.1', '198.51.100.2', '198.51.100.3', '127.0.0.1', '127.0.0.1'],
      'the log lines name the client as it was keyed',
    )
  },
)
