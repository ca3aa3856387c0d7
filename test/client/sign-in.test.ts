// signIn over an EIP-1193 wallet (a viem private-key account), the session methods in Bearer mode
// (Node has no cookies), and a lapsed session signed back in once with the call repeated, the create
// with its own Idempotency-Key and attributed to the user.
import t from 'tap'
import type { FetchLike } from 'swap-gateway-client'
import { orderBody } from '../helpers/picks.js'
import { signedBody } from '../helpers/sign-in.js'
import { clientGateway, rejection, walletProvider } from './setup.js'

const MINUTE = 60_000
/** Past the access token's 15 minutes. */
const LAPSE = 16 * MINUTE

/** Global fetch, recording each request's method, path, headers and answer status. */
function recordingFetch() {
  const sent: Array<{ method: string; path: string; headers: Record<string, string>; status: number }> = []
  const fetchImpl: FetchLike = async (input, init) => {
    const res = await fetch(input, init)
    sent.push({
      method: init.method ?? 'GET',
      path: new URL(input).pathname,
      headers: init.headers as Record<string, string>,
      status: res.status,
    })
    return res
  }
  return { fetch: fetchImpl, sent }
}

t.test(
  'signIn asks the wallet for its account and chain, signs the message, and opens a session',
  async (t) => {
    const gw = await clientGateway(t)
    const client = gw.client()
    const wallet = walletProvider(undefined, '0xa')
    const session = await client.signIn(wallet.provider)
    t.same(wallet.calls, ['eth_requestAccounts', 'eth_chainId', 'personal_sign'])
    t.equal(session.signedIn, true)
    t.equal(session.address.toLowerCase(), wallet.account.address.toLowerCase())
    t.equal(session.chainId, '10', 'the chain the wallet is on')
    t.type(session.userId, 'string')
    t.ok(Date.parse(session.expiresAt) > gw.clock.now())
    t.type(session.sessionToken, 'string', 'Node has no cookies: Bearer mode')
    t.equal(client.sessionToken, session.sessionToken, 'kept by the client')

    t.match(await client.getSession(), { signedIn: true, userId: session.userId, chainId: '10' })
    t.equal((await client.getMe()).id, session.userId, "the upstream's user")
    const order = await client.createOrder(orderBody(gw.p))
    t.equal(order.userId, session.userId, 'orders are attributed')
    const history = await client.listOrders({ limit: 10, current: 1 })
    t.same(
      history.items.map((o) => o.uuid),
      [order.uuid],
    )
    t.ok(
      gw.control.requestsTo('GET /v1/orders').every((r) => r.url === '/v1/orders?current=1&limit=10'),
      'the page as given',
    )

    const chosen = walletProvider()
    await gw.client().signIn(chosen.provider, { chainId: 137 })
    t.same(chosen.calls, ['eth_requestAccounts', 'personal_sign'], 'a chain given is not asked for')
  },
)

t.test('the methods that need a session reject with AUTH_REQUIRED without one', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client()
  t.same(await client.getSession(), { signedIn: false })
  for (const call of [client.listOrders(), client.getMe(), client.refreshSession()]) {
    const problem = await rejection(call)
    t.equal(problem.code, 'AUTH_REQUIRED')
    t.equal(problem.status, 401)
  }
})

t.test('getChallenge and verifySignIn sign in without a provider, and logout ends the session', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client()
  const { account } = walletProvider()
  t.type((await client.getChallenge()).nonce, 'string', 'a bare nonce')
  const challenge = await client.getChallenge({ address: account.address, chainId: 1 })
  const message = challenge.message!
  t.match(message, `Nonce: ${challenge.nonce}`)
  const session = await client.verifySignIn(await signedBody(account, message))
  t.equal(session.address, account.address)
  t.equal((await client.getSession()).signedIn, true)

  await client.logout()
  t.equal(client.sessionToken, undefined, 'the token is forgotten')
  t.same(await client.getSession(), { signedIn: false })
  t.equal((await rejection(client.listOrders())).code, 'AUTH_REQUIRED')

  const bad = await rejection(
    client.verifySignIn({
      data: { chainId: '1', accountAddress: account.address },
      message,
      signature: await account.signMessage({ message: 'something else' }),
    }),
  )
  t.match(bad.code, /^(SIGNATURE_INVALID|NONCE_INVALID)$/)
})

t.test('without a wallet, a lapsed session rejects with SESSION_EXPIRED and its challenge', async (t) => {
  const gw = await clientGateway(t)
  const wallet = walletProvider()
  const { sessionToken } = await gw.client().signIn(wallet.provider)
  // Another client with only the token (a server picking up a stored session): it holds no wallet.
  const client = gw.client({ sessionToken })
  gw.advance(LAPSE)
  t.match(await client.getSession(), { signedIn: false, expired: true })
  const problem = await rejection(client.getMe())
  t.equal(problem.code, 'SESSION_EXPIRED')
  t.equal(problem.status, 401)
  t.type(problem.challenge?.nonce, 'string')
  t.match(problem.challenge?.message, `Nonce: ${problem.challenge?.nonce}`, 'a message ready to sign')
  t.equal(wallet.signatures(), 1, 'no wallet was asked again')
})

t.test(
  'a lapsed session is signed back in once and the create repeated with the same Idempotency-Key, attributed',
  async (t) => {
    const gw = await clientGateway(t)
    const recording = recordingFetch()
    const client = gw.client({ fetch: recording.fetch })
    const wallet = walletProvider()
    const session = await client.signIn(wallet.provider)
    const firstToken = client.sessionToken

    gw.advance(LAPSE)
    const order = await client.createOrder(orderBody(gw.p), { idempotencyKey: 'lapse-key-1' })
    t.equal(order.userId, session.userId, 'attributed to the user, not created anonymously')
    t.equal(wallet.signatures(), 2, 'one more signature')
    t.not(client.sessionToken, firstToken, 'the new session is kept')

    const creates = recording.sent.filter((r) => r.path === '/api/v1/orders/create')
    t.same(
      creates.map((r) => [r.status, r.headers['idempotency-key']]),
      [
        [401, 'lapse-key-1'],
        [201, 'lapse-key-1'],
      ],
      'refused once, then repeated with the same key',
    )
    t.equal(gw.control.requestsTo('POST /v1/orders/create').length, 1, 'one order upstream')
    t.same(
      recording.sent.slice(-3).map((r) => r.path),
      ['/api/v1/orders/create', '/api/auth/siwx/verify', '/api/v1/orders/create'],
      'the challenge that came with the problem was signed: no extra call',
    )
  },
)

t.test(
  'a restarted app with a stored token and a wallet given at creation signs back in once, as after signIn',
  async (t) => {
    const gw = await clientGateway(t)
    const first = walletProvider()
    const { account } = first
    const session = await gw.client().signIn(first.provider)
    gw.advance(LAPSE)

    // The app starts again: the stored token, and the key it signs with (no EIP-1193 provider).
    const signed: string[] = []
    const told: Array<string | undefined> = []
    const recording = recordingFetch()
    const restarted = gw.client({
      sessionToken: session.sessionToken,
      fetch: recording.fetch,
      onSessionToken: (token) => told.push(token),
      wallet: {
        address: account.address,
        chainId: 1,
        signMessage: (message) => {
          signed.push(message)
          return account.signMessage({ message })
        },
      },
    })
    const order = await restarted.createOrder(orderBody(gw.p), { idempotencyKey: 'restart-key-1' })
    t.equal(order.userId, session.userId, 'created for the user')
    t.equal(signed.length, 1, 'one signature')
    t.match(signed[0], /Nonce: /, 'of the challenge the refusal carried')
    t.same(told, [restarted.sessionToken], 'the app is told the new token, to store')
    t.not(told[0], session.sessionToken)
    t.same(
      recording.sent.map((r) => [r.path, r.status, r.headers['idempotency-key']]),
      [
        ['/api/v1/orders/create', 401, 'restart-key-1'],
        ['/api/auth/siwx/verify', 201, undefined],
        ['/api/v1/orders/create', 201, 'restart-key-1'],
      ],
      'refused, signed back in, repeated with the same key',
    )
    t.equal(gw.control.requestsTo('POST /v1/orders/create').length, 1, 'one order upstream')

    // An EIP-1193 provider given at creation: asked for its account only when it has to sign.
    const wallet = walletProvider(account)
    const withProvider = gw.client({ sessionToken: told[0], wallet: wallet.provider })
    t.equal((await withProvider.getMe()).id, session.userId)
    t.same(wallet.calls, [], 'a live session asks the wallet nothing')
    gw.advance(LAPSE)
    t.equal((await withProvider.getMe()).id, session.userId, 'signed back in')
    t.same(wallet.calls, ['eth_requestAccounts', 'eth_chainId', 'personal_sign'])

    const fresh = gw.client({ wallet: walletProvider(account).provider })
    t.equal((await fresh.signIn()).userId, session.userId, 'signIn() signs in with that wallet')
    await t.rejects(gw.client().signIn(), TypeError, 'and without one, says a wallet is needed')
  },
)

t.test(
  'calls that lapse together share one signature, and a second lapse is not retried twice',
  async (t) => {
    const gw = await clientGateway(t)
    const client = gw.client()
    const wallet = walletProvider()
    const session = await client.signIn(wallet.provider)
    gw.advance(LAPSE)
    const [me, history, again] = await Promise.all([client.getMe(), client.listOrders(), client.getMe()])
    t.equal(me.id, session.userId)
    t.equal(again.id, session.userId)
    t.same(history.items, [])
    t.equal(wallet.signatures(), 2, 'one wallet prompt for the three calls')

    // Only the gateway's clock moves: every token the upstream issues now looks lapsed to it.
    gw.clock.advance(LAPSE)
    const problem = await rejection(client.getMe())
    t.equal(problem.code, 'SESSION_EXPIRED', 'the repeat answered the same: no loop')
    t.equal(wallet.signatures(), 3, 'one re-sign per call, not more')
  },
)

t.test(
  'refreshSession renews through the upstream, or with one signature when that is refused',
  async (t) => {
    const gw = await clientGateway(t)
    const client = gw.client()
    const wallet = walletProvider()
    const session = await client.signIn(wallet.provider)
    gw.advance(LAPSE)
    const resigned = await client.refreshSession()
    t.equal(resigned.userId, session.userId, 'the refused refresh became a signature')
    t.equal(wallet.signatures(), 2)
    t.equal((await client.getSession()).signedIn, true)

    gw.control.setRefreshWorks(true)
    gw.advance(LAPSE)
    const before = client.sessionToken
    const renewed = await client.refreshSession()
    t.equal(renewed.userId, session.userId)
    t.equal(wallet.signatures(), 2, 'no signature when the upstream renews')
    t.not(client.sessionToken, before, 'the renewed token is kept')
    t.equal((await client.getMe()).id, session.userId)
  },
)

t.test('a challenge without a message is replaced by a fresh one for the wallet', async (t) => {
  const gw = await clientGateway(t)
  // The gateway's answer with the message taken out, as a gateway that cannot build one would send.
  const strip: FetchLike = async (input, init) => {
    const res = await fetch(input, init)
    if (res.status !== 401) return res
    const body = (await res.json()) as { challenge?: { message?: string } }
    delete body.challenge?.message
    return new Response(JSON.stringify(body), { status: 401, headers: res.headers })
  }
  const client = gw.client({ fetch: strip })
  const wallet = walletProvider()
  const session = await client.signIn(wallet.provider)
  gw.advance(LAPSE)
  t.equal((await client.getMe()).id, session.userId)
  t.equal(wallet.signatures(), 2)
})

t.test('a wallet that refuses to sign again leaves the SESSION_EXPIRED problem, with why', async (t) => {
  const gw = await clientGateway(t)
  const client = gw.client()
  const wallet = walletProvider()
  await client.signIn(wallet.provider)
  const refusal = Object.assign(new Error('User rejected the request.'), { code: 4001 })
  const sign = wallet.provider.request
  wallet.provider.request = async (args) => {
    if (args.method === 'personal_sign') throw refusal
    return sign(args)
  }
  gw.advance(LAPSE)
  const problem = await rejection(client.listOrders())
  t.equal(problem.code, 'SESSION_EXPIRED')
  t.equal(problem.cause, refusal, "the wallet's refusal as cause")
})

t.test('onSessionToken is told each new session token: sign-in, re-sign after a lapse, logout', async (t) => {
  const gw = await clientGateway(t)
  const told: Array<string | undefined> = []
  const client = gw.client({ onSessionToken: (token) => told.push(token) })
  const wallet = walletProvider()
  const session = await client.signIn(wallet.provider)
  t.same(told, [session.sessionToken], 'the sign-in token, to persist')

  gw.advance(LAPSE)
  await client.listOrders()
  t.equal(told.length, 2, 'the re-sign after the lapse changed the token once')
  t.equal(told[1], client.sessionToken, 'and the app was told the new one')
  t.not(told[1], told[0])

  // An app restarting with the stored token goes on where it was.
  const restarted = gw.client({ sessionToken: told[1] })
  t.match(await restarted.getSession(), { signedIn: true, address: wallet.account.address.toLowerCase() })

  await client.logout()
  t.same(told.at(-1), undefined, 'logout: nothing to keep')
  t.equal(told.length, 3)
})

/** A fetch that keeps cookies as a browser on the gateway's own site would. */
function cookieJarFetch(): FetchLike {
  const jar = new Map<string, string>()
  return async (input, init) => {
    const headers = new Headers(init.headers)
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '))
    const res = await fetch(input, { ...init, headers })
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, value] = pair!.split('=') as [string, string]
      jar.set(name, value)
    }
    return res
  }
}

t.test('cookie mode: signIn checks that the session cookie was kept', async (t) => {
  const gw = await clientGateway(t)
  const kept = gw.client({ sessionMode: 'cookie', fetch: cookieJarFetch() })
  const session = await kept.signIn(walletProvider().provider)
  t.equal(session.signedIn, true, 'a client that keeps the cookie is signed in')
  t.equal(session.sessionToken, undefined, 'no token asked for in cookie mode')
  t.match(await kept.getSession(), { signedIn: true })

  // Node's fetch keeps no cookie: as a browser that refused the gateway's cookie from another site.
  const dropped = gw.client({ sessionMode: 'cookie' })
  const problem = await rejection(dropped.signIn(walletProvider().provider))
  t.equal(problem.code, 'COOKIE_NOT_KEPT')
  t.equal(problem.method, 'signIn')
  t.equal(problem.retryable, false)
  t.match(problem.detail, gw.url, "the gateway's origin is named")
  t.match(problem.detail, /same host name|under the gateway's host name/, 'and the way out')
  t.match(problem.detail, /sessionMode: 'token'/, 'token mode among them')
})

t.test('a wallet slower than the nonce lives is asked once more, with the fresh challenge', async (t) => {
  const gw = await clientGateway(t)
  const wallet = walletProvider()
  const signed: string[] = []
  /** A wallet that takes `slowFor` signatures longer than the message lives (5 minutes). */
  const slow = (slowFor: number) => {
    const sign = wallet.provider.request.bind(wallet.provider)
    return {
      request: async (args: { method: string; params?: readonly unknown[] }) => {
        if (args.method !== 'personal_sign') return sign(args)
        signed.push(String(args.params?.[0]))
        if (signed.length <= slowFor) gw.advance(5 * MINUTE + 1000)
        return sign(args)
      },
    }
  }
  const recording = recordingFetch()
  const client = gw.client({ fetch: recording.fetch })
  const session = await client.signIn(slow(1))
  t.equal(session.signedIn, true, 'signed in after all')
  t.equal(signed.length, 2, 'one more signature')
  t.not(signed[1], signed[0], 'of a fresh message')
  t.same(
    recording.sent.map((r) => [r.path, r.status]),
    [
      ['/api/auth/siwx/challenge', 200],
      ['/api/auth/siwx/verify', 401],
      ['/api/auth/siwx/verify', 201],
    ],
    "the refusal's challenge was signed: no other call",
  )

  signed.length = 0
  const problem = await rejection(gw.client().signIn(slow(2)))
  t.equal(problem.code, 'SIGNATURE_INVALID', 'too slow twice: the refusal')
  t.equal(problem.method, 'signIn')
  t.type(problem.challenge?.message, 'string', 'with its challenge, for the page to offer')
  t.equal(signed.length, 2, 'asked twice, not more')
})
