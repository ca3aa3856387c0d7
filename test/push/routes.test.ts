// The Web Push routes as a page calls them: the public key, subscribing (validated field by field,
// the order read first, at most WEB_PUSH_MAX_PER_ORDER), replacing keys, and unsubscribing.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { startPushService } from './push-service.js'
import { pushGateway } from './setup.js'

t.test('the public key route gives the configured VAPID public key, a P-256 point', async (t) => {
  const gw = await pushGateway(t)
  const res = await gw.app.inject({ method: 'GET', url: '/api/v1/push/public-key' })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { publicKey: gw.keys.publicKey })
  const point = Buffer.from(gw.keys.publicKey, 'base64url')
  t.equal(point.length, 65)
  t.equal(point[0], 4)
  t.notOk(res.body.includes(gw.keys.privateKey))
})

t.test('a malformed subscription is 400 INVALID_PUSH_SUBSCRIPTION naming each bad field', async (t) => {
  const gw = await pushGateway(t)
  const uuid = await gw.newOrder()
  const res = await gw.subscribe(uuid, {
    endpoint: 42,
    expirationTime: 'soon',
    keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(15).toString('base64url') },
  })
  t.equal(res.statusCode, 400)
  const body = res.json() as { code: string; errors: Array<{ path: string }> }
  t.equal(body.code, 'INVALID_PUSH_SUBSCRIPTION')
  t.same(body.errors.map((e) => e.path).sort(), [
    'body.endpoint',
    'body.expirationTime',
    'body.keys.auth',
    'body.keys.p256dh',
  ])
  const noKeys = await gw.subscribe(uuid, { endpoint: 'https://push.example/x', expirationTime: null })
  t.equal(noKeys.statusCode, 400)
  t.match(noKeys.json(), { code: 'INVALID_PUSH_SUBSCRIPTION', errors: [{ path: 'body.keys' }] })
})

t.test('a subscription to an unknown order is 404 ORDER_NOT_FOUND', async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const res = await gw.subscribe(randomUUID(), push.browser().json)
  t.equal(res.statusCode, 404)
  t.equal(res.json().code, 'ORDER_NOT_FOUND')
})

t.test('the sixth subscription of an order is 409; the same endpoint again replaces its keys', async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const browsers = Array.from({ length: 5 }, () => push.browser())
  for (const b of browsers) {
    const res = await gw.subscribe(uuid, b.json)
    t.equal(res.statusCode, 201)
    t.same(res.json(), { orderId: uuid, status: 'AWAITING_USER_DEPOSIT' })
  }
  const sixth = await gw.subscribe(uuid, push.browser().json)
  t.equal(sixth.statusCode, 409)
  t.equal(sixth.json().code, 'TOO_MANY_SUBSCRIPTIONS')
  const again = await gw.subscribe(uuid, browsers[0]!.rekeyed().json)
  t.equal(again.statusCode, 201, 'a known endpoint is a replacement, not a sixth')
  t.equal((await gw.unsubscribe(uuid, browsers[1]!.json.endpoint)).statusCode, 204)
  t.equal((await gw.subscribe(uuid, push.browser().json)).statusCode, 201, 'room again after one ended')
})

t.test('unsubscribing is 204, subscribed or not', async (t) => {
  const gw = await pushGateway(t)
  const push = await startPushService(t)
  const uuid = await gw.newOrder()
  const b = push.browser()
  t.equal((await gw.unsubscribe(uuid, b.json.endpoint)).statusCode, 204)
  t.equal((await gw.subscribe(uuid, b.json)).statusCode, 201)
  const res = await gw.unsubscribe(uuid, b.json.endpoint)
  t.equal(res.statusCode, 204)
  t.equal(res.body, '')
})

t.test('in production without VAPID keys the push routes answer 404 NOT_FOUND', async (t) => {
  const gw = await startGateway(t, {
    env: { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://app.example', DEMO: 'off' },
  })
  const uuid = randomUUID()
  const answers = await Promise.all([
    gw.app.inject({ method: 'GET', url: '/api/v1/push/public-key' }),
    gw.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${uuid}/push-subscriptions`,
      payload: { endpoint: 'https://push.example/x', expirationTime: null, keys: { p256dh: 'a', auth: 'b' } },
    }),
    gw.app.inject({ method: 'DELETE', url: `/api/v1/orders/${uuid}/push-subscriptions?endpoint=x` }),
  ])
  t.same(
    answers.map((r) => [r.statusCode, r.json().code]),
    Array.from({ length: 3 }, () => [404, 'NOT_FOUND']),
  )
})
