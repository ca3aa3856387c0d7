// The typed client's Web Push methods against a listening gateway: the gateway's key handed to the
// registration's PushManager as bytes, an existing subscription reused (or replaced when made with
// another key), its toJSON() posted, and the browser's refusal or the gateway's problem as a
// GatewayProblem. The registration is a stand-in with the shape of a browser's: Node has no PushManager.
import { createECDH, randomBytes } from 'node:crypto'
import t, { type Test } from 'tap'
import {
  type BrowserPushSubscription,
  type FetchLike,
  isProblemOf,
  type PushRegistration,
  type PushSubscriptionBody,
} from 'swap-gateway-client'
import { orderBody } from '../helpers/picks.js'
import { clientGateway, rejection } from './setup.js'

/** A subscription as a push service hands it out: real P-256 keys, a 16-byte secret, an endpoint. */
function pushSubscription(
  key: ArrayBuffer | null,
  // A local push service's address, which the gateway admits outside production.
  endpoint = `http://127.0.0.1:9/push/${randomBytes(8).toString('hex')}`,
) {
  const json = {
    endpoint,
    expirationTime: null,
    keys: {
      p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  }
  const subscription = {
    endpoint,
    options: { applicationServerKey: key },
    unsubscribed: false,
    toJSON: () => json,
    async unsubscribe() {
      subscription.unsubscribed = true
      return true
    },
  }
  return subscription
}

/** A registration whose PushManager records what it was asked; `refuse` makes subscribe throw as a browser does. */
function registration(existing: BrowserPushSubscription | null = null, refuse?: Error) {
  const keys: Buffer[] = []
  let current = existing
  const reg: PushRegistration = {
    pushManager: {
      getSubscription: async () => current,
      async subscribe({ userVisibleOnly, applicationServerKey }) {
        if (refuse) throw refuse
        if (!userVisibleOnly) throw new Error('Chrome refuses subscriptions that are not user-visible')
        keys.push(Buffer.from(applicationServerKey))
        current = pushSubscription(applicationServerKey)
        return current
      },
    },
  }
  return { reg, keys, current: () => current }
}

/** fetch, recording each call as `METHOD path?query`. */
function recorded() {
  const calls: string[] = []
  const fetch: FetchLike = (input, init) => {
    const url = new URL(input)
    calls.push(`${init.method ?? 'GET'} ${url.pathname}${url.search}`)
    return globalThis.fetch(input, init)
  }
  return { fetch, calls }
}

async function setUp(t: Test) {
  const gw = await clientGateway(t)
  const { fetch, calls } = recorded()
  const client = gw.client({ fetch })
  const order = await client.createOrder(orderBody(gw.p))
  const { publicKey } = await client.getPushPublicKey()
  calls.length = 0
  return { gw, client, calls, uuid: order.uuid, key: Buffer.from(publicKey, 'base64url') }
}

t.test(
  "subscribes with the gateway's key as bytes, posts toJSON(), and a second time replaces",
  async (t) => {
    const { client, calls, uuid, key } = await setUp(t)
    t.equal(key.length, 65, 'an uncompressed P-256 point')
    const browser = registration()
    const subscription = await client.subscribeToOrderPush(uuid, browser.reg)
    t.same(browser.keys, [key], "the PushManager was given the gateway's key")
    t.equal(subscription, browser.current(), "resolves to the browser's subscription")
    const path = `/api/v1/orders/${uuid}/push-subscriptions`
    t.same(calls, ['GET /api/v1/push/public-key', `POST ${path}`])

    // Subscribing again (a reload, another order) reuses the browser's subscription: one per registration.
    calls.length = 0
    t.equal(await client.subscribeToOrderPush(uuid, browser.reg), subscription, 'the same subscription')
    t.equal(browser.keys.length, 1, 'the PushManager was not asked again')
    t.same(calls, ['GET /api/v1/push/public-key', `POST ${path}`], 'the gateway answered 201 again')

    calls.length = 0
    await client.unsubscribeFromOrderPush(uuid, browser.reg)
    t.same(calls, [`DELETE ${path}?endpoint=${encodeURIComponent(subscription.endpoint)}`])
    t.equal((subscription as ReturnType<typeof pushSubscription>).unsubscribed, false, 'the browser keeps it')
  },
)

t.test('a subscription made with another key is replaced by one with the gateway’s', async (t) => {
  const { client, uuid, key } = await setUp(t)
  const stale = pushSubscription(new Uint8Array(65).fill(4).buffer)
  const browser = registration(stale)
  const subscription = await client.subscribeToOrderPush(uuid, browser.reg)
  t.ok(stale.unsubscribed, 'the old one is unsubscribed first (a browser refuses to subscribe over it)')
  t.not(subscription, stale)
  t.same(browser.keys, [key])
})

t.test('the browser refusing rejects with PUSH_REFUSED and posts nothing', async (t) => {
  const { client, calls, uuid } = await setUp(t)
  const denied = Object.assign(new Error('Registration failed - permission denied'), {
    name: 'NotAllowedError',
  })
  const problem = await rejection(client.subscribeToOrderPush(uuid, registration(null, denied).reg))
  t.ok(isProblemOf(problem, 'subscribeToOrderPush'))
  t.equal(problem.code, 'PUSH_REFUSED')
  t.equal(problem.status, 0)
  t.equal(problem.retryable, false)
  t.match(problem.detail, /NotAllowedError: Registration failed - permission denied/)
  t.equal(problem.cause, denied, "the browser's error as cause")
  t.same(calls, ['GET /api/v1/push/public-key'])
})

t.test(
  "an unknown order rejects with the gateway's problem; unsubscribing without a subscription asks nothing",
  async (t) => {
    const { client, calls } = await setUp(t)
    const missing = await rejection(
      client.subscribeToOrderPush('7b0e8d3e-5f7c-4a5e-9d8b-2f3c4d5e6f70', registration().reg),
    )
    t.ok(isProblemOf(missing, 'subscribeToOrderPush'))
    t.equal(missing.code, 'ORDER_NOT_FOUND')
    t.equal(missing.status, 404)

    calls.length = 0
    await client.unsubscribeFromOrderPush('7b0e8d3e-5f7c-4a5e-9d8b-2f3c4d5e6f70', registration().reg)
    t.same(calls, [], 'nothing to forget without a browser subscription')
  },
)

t.test(
  'the gateway keeps what was subscribed: the same endpoint replaces, a DELETE frees a place',
  async (t) => {
    const gw = await clientGateway(t, { env: { WEB_PUSH_MAX_PER_ORDER: '2' } })
    const client = gw.client()
    const { uuid } = await client.createOrder(orderBody(gw.p))
    const first = registration()
    await client.subscribeToOrderPush(uuid, first.reg)
    await client.subscribeToOrderPush(uuid, first.reg)
    const second = registration()
    await client.subscribeToOrderPush(uuid, second.reg)
    t.pass('one browser twice and a second browser: two subscriptions, within the two allowed')
    const third = registration()
    const full = await rejection(client.subscribeToOrderPush(uuid, third.reg))
    t.ok(isProblemOf(full, 'subscribeToOrderPush'))
    t.equal(full.code, 'TOO_MANY_SUBSCRIPTIONS', 'a third browser finds the order full')
    await client.unsubscribeFromOrderPush(uuid, second.reg)
    await client.subscribeToOrderPush(uuid, third.reg)
    t.pass('once the second unsubscribed, the third has its place')
    t.same(
      await client.subscribeOrderPush(uuid, third.current()!.toJSON() as PushSubscriptionBody),
      {
        orderId: uuid,
        status: 'AWAITING_USER_DEPOSIT',
      },
      'the answer: the order and its status now',
    )
  },
)
