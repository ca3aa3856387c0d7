// Endpoints are URLs a stranger chose, and the gateway POSTs to them: none may lead into the
// operator's network, when subscribed or at any later connection, and no redirect is followed.
import type { LookupAddress } from 'node:dns'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import { startPushService } from './push-service.js'
import { pushGateway } from './setup.js'

const KEYS = async (t: Test) => (await startPushService(t)).browser().json.keys

/** A resolver the test sets: each name answers the addresses in `dns` (none: not found). */
function fakeDns() {
  const dns = new Map<string, string[]>()
  const calls: string[] = []
  return {
    dns,
    calls,
    resolve(host: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) {
      calls.push(host)
      const found = dns.get(host)
      if (!found) return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), [])
      callback(
        null,
        found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      )
    },
  }
}

const strictGateway = (t: Test, resolve = fakeDns()) =>
  pushGateway(t, { WEB_PUSH_ALLOW_LOCAL_ENDPOINTS: 'false' }, { pushResolve: resolve.resolve })

t.test('an endpoint naming an IP address, or not https:, is refused', async (t) => {
  const gw = await strictGateway(t)
  const uuid = await gw.newOrder()
  const keys = await KEYS(t)
  for (const [endpoint, message] of [
    ['https://93.184.216.34/push/x', 'must name its host, not an IP address'],
    ['https://[::1]/push/x', 'must name its host, not an IP address'],
    ['https://127.0.0.1/push/x', 'must name its host, not an IP address'],
    ['http://push.example/push/x', 'must be an https: URL'],
  ] as const) {
    const res = await gw.subscribe(uuid, { endpoint, expirationTime: null, keys })
    t.equal(res.statusCode, 400, endpoint)
    t.match(res.json(), { code: 'INVALID_PUSH_SUBSCRIPTION', errors: [{ path: 'body.endpoint', message }] })
  }
})

t.test('a name resolving to a loopback, private or unique-local address is refused', async (t) => {
  const resolver = fakeDns()
  resolver.dns.set('v4-loopback.example', ['127.0.0.1'])
  resolver.dns.set('v6-loopback.example', ['::1'])
  resolver.dns.set('private.example', ['10.0.0.8'])
  resolver.dns.set('mixed.example', ['93.184.216.34', 'fd00::5'])
  resolver.dns.set('link-local.example', ['169.254.169.254'])
  resolver.dns.set('public.example', ['93.184.216.34', '2606:2800:220:1::1'])
  const gw = await strictGateway(t, resolver)
  const uuid = await gw.newOrder()
  const keys = await KEYS(t)
  const answer = (host: string) =>
    gw.subscribe(uuid, { endpoint: `https://${host}/push/x`, expirationTime: null, keys })
  for (const host of [
    'v4-loopback.example',
    'v6-loopback.example',
    'private.example',
    'mixed.example',
    'link-local.example',
    'unknown.example',
  ]) {
    const res = await answer(host)
    t.equal(res.statusCode, 400, host)
    t.match(res.json(), { code: 'INVALID_PUSH_SUBSCRIPTION', errors: [{ path: 'body.endpoint' }] })
  }
  t.equal((await answer('public.example')).statusCode, 201, 'public addresses only: admitted')
})

t.test('a name that resolves to loopback after it was subscribed is never connected to', async (t) => {
  const inside = createServer((socket) => {
    connections++
    socket.destroy()
  })
  let connections = 0
  await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => inside.close(() => resolve())))
  const port = (inside.address() as AddressInfo).port
  const resolver = fakeDns()
  resolver.dns.set('rebind.example', ['93.184.216.34'])
  const gw = await strictGateway(t, resolver)
  const uuid = await gw.newOrder()
  const endpoint = `https://rebind.example:${port}/push/x`
  t.equal((await gw.subscribe(uuid, { endpoint, expirationTime: null, keys: await KEYS(t) })).statusCode, 201)
  resolver.dns.set('rebind.example', ['127.0.0.1'])
  const asked = resolver.calls.length
  await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
  await eventually('the refused attempt', () => gw.logs.text().includes('PUSH_ENDPOINT_REFUSED'))
  t.ok(resolver.calls.length > asked, 'the connection looked the name up again')
  t.equal(connections, 0, 'no connection reached the inside address')
  t.match(await gw.app.metrics.registry.metrics(), /gateway_push_sends_total\{outcome="retried"\} 1/)
})

t.test("a push service's redirect is not followed", async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const b = push.browser()
  await gw.subscribe(uuid, b.json)
  push.answer(b, { status: 307, headers: { location: `${push.origin}/elsewhere` } })
  await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
  await eventually('the attempt', () => push.to(b).length === 1)
  await eventually('its outcome', async () =>
    /outcome="retried"\} 1/.test(await gw.app.metrics.registry.metrics()),
  )
  t.same(
    push.received.map((r) => r.path),
    [`/push/${b.token}`],
    'nothing sent where the redirect pointed',
  )
})

t.test('in development an endpoint may name a local host: its name is looked up at each push', async (t) => {
  // The system's resolver, as in production: localhost is a loopback address, admitted here only.
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const b = push.browser()
  const endpoint = b.json.endpoint.replace('//127.0.0.1:', '//localhost:')
  t.equal((await gw.subscribe(uuid, { ...b.json, endpoint })).statusCode, 201)
  await gw.publish(uuid, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'AWAITING_USER_DEPOSIT')
  await eventually('the push, at the address localhost names', () => push.to(b).length === 1)
  t.equal(b.decrypt(push.to(b)[0]!.body).status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
})
