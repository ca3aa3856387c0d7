// The client where React Native's runtime falls short: URLSearchParams whose `set` and `append`
// throw (older releases stub them out), URL objects that cannot be changed, no TextEncoder (older
// Hermes) and no structuredClone. Every method still works, against a gateway of its own process
// (so that the gateway, which runs on Node, is untouched by the stubs).
import { EventSource } from 'eventsource'
import t from 'tap'
import { createECDH, randomBytes } from 'node:crypto'
import {
  createGatewayClient,
  type LiveQuote,
  type PushRegistration,
  type Snapshot,
} from 'swap-gateway-client'
import { roomyLimits } from '../helpers/limits.js'
import { orderBody, picks } from '../helpers/picks.js'
import { runGateway } from '../helpers/process.js'
import { signedBody } from '../helpers/sign-in.js'
import { walletProvider } from './setup.js'

const pushKeys = () => ({
  p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
  auth: randomBytes(16).toString('base64url'),
})

const refuse = (what: string) => () => {
  throw new Error(`${what} is not implemented`)
}

/** React Native's shortfalls, in this process, until the returned function puts everything back. */
function asReactNative(): () => void {
  const restore: Array<() => void> = []
  const params = URLSearchParams.prototype as unknown as Record<string, unknown>
  for (const method of ['set', 'append', 'delete', 'sort']) {
    const own = params[method]
    params[method] = refuse(`URLSearchParams.${method}`)
    restore.push(() => (params[method] = own))
  }
  for (const member of ['href', 'search', 'pathname', 'hash', 'host', 'hostname', 'port', 'protocol']) {
    const own = Object.getOwnPropertyDescriptor(URL.prototype, member)!
    Object.defineProperty(URL.prototype, member, { ...own, set: refuse(`URL.${member} =`) })
    restore.push(() => Object.defineProperty(URL.prototype, member, own))
  }
  const globals = globalThis as Record<string, unknown>
  for (const name of ['TextEncoder', 'structuredClone', 'atob', 'btoa']) {
    const own = globals[name]
    delete globals[name]
    restore.push(() => (globals[name] = own))
  }
  return () => restore.forEach((undo) => undo())
}

t.test('with React Native’s URLSearchParams, URL and no TextEncoder, every method works', async (t) => {
  const gw = runGateway({ PORT: '0', HOST: '127.0.0.1', RATE_LIMITS: roomyLimits(100_000) })
  t.teardown(() => gw.child.kill('SIGKILL'))
  const listening = await gw.waitFor((l) => String(l.msg).startsWith('Server listening'))
  const baseUrl = String(listening.msg).match(/http:\/\/127\.0\.0\.1:\d+/)![0]
  t.teardown(asReactNative())
  t.throws(() => new URLSearchParams().set('a', '1'), /not implemented/, 'the stubs are in place')

  const client = createGatewayClient({ baseUrl, EventSource })
  t.ok((await client.listChains()).length > 0, 'listChains')
  const tokens = await client.listTokens({ tradable: true, q: 'usdt' })
  t.ok(
    tokens.length > 0 && tokens.every((token) => /usdt/i.test(`${token.symbol} ${token.name}`)),
    'listTokens, filtered',
  )
  const p = picks((await client.listTokens()) as Parameters<typeof picks>[0])
  t.equal((await client.getToken(p.eth.id)).id, p.eth.id, 'getToken')
  const pair = { depositTokenId: p.usdtEth.id, settleTokenId: p.eth.id }
  const quote = await client.getQuote({ ...pair, amount: 100, amountIsDeposit: true })
  t.type(quote, 'object', 'getQuote')
  t.type(await client.getSwapLimits(pair), 'object', 'getSwapLimits')

  const wallet = walletProvider()
  const { account } = wallet
  const challenge = await client.getChallenge({ address: account.address, chainId: 1 })
  t.match(challenge.message, account.address, 'getChallenge, for the account')
  const verified = await client.verifySignIn(await signedBody(account, challenge.message!))
  t.equal(verified.signedIn, true, 'verifySignIn')
  const session = await client.signIn(wallet.provider)
  t.equal(
    session.address.toLowerCase(),
    account.address.toLowerCase(),
    'signIn over EIP-1193 (personal_sign hex)',
  )
  t.match(await client.getSession(), { signedIn: true }, 'getSession')
  t.equal((await client.getMe()).id, session.userId, 'getMe')
  t.equal((await client.refreshSession()).signedIn, true, 'refreshSession')

  const order = await client.createOrder(orderBody(p), { idempotencyKey: 'react-native-1' })
  t.equal((await client.getOrder(order.uuid)).uuid, order.uuid, 'createOrder, getOrder')
  t.same(
    (await client.listOrders({ limit: 10, current: 1 })).items.map((o) => o.uuid),
    [order.uuid],
    'listOrders, paged',
  )
  const snapshot = await new Promise<Snapshot>((resolve, reject) => {
    const following = client.followOrder(order.uuid, {
      onSnapshot: (first) => (following.close(), resolve(first)),
      onError: reject,
    })
  })
  t.equal(snapshot.uuid, order.uuid, 'followOrder')
  const live = await new Promise<LiveQuote>((resolve, reject) => {
    const watching = client.watchQuote(
      { ...pair, amount: 100, amountIsDeposit: true },
      { onQuote: (first) => (watching.close(), resolve(first)), onProblem: reject },
    )
  })
  t.type(live.quotedAt, 'string', 'watchQuote')
  const { publicKey } = await client.getPushPublicKey()
  const made: ArrayBuffer[] = []
  const subscription = {
    endpoint: 'http://127.0.0.1:9/push/react-native', // a local push service, admitted outside production
    options: { applicationServerKey: null },
    toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: pushKeys() }),
    unsubscribe: async () => true,
  }
  const registration: PushRegistration = {
    pushManager: {
      getSubscription: async () => null,
      subscribe: async ({ applicationServerKey }) => (made.push(applicationServerKey), subscription),
    },
  }
  t.equal(await client.subscribeToOrderPush(order.uuid, registration), subscription, 'subscribeToOrderPush')
  t.equal(Buffer.from(made[0]!).toString('base64url'), publicKey, 'the key decoded without atob')
  await client.unsubscribeFromOrderPush(order.uuid, registration)
  await client.logout()
  t.same(await client.getSession(), { signedIn: false }, 'logout')
})
