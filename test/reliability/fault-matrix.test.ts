// The fault matrix: every upstream route the gateway calls, under every upstream fault, answers the
// contract's code within the deadline while other routes are served, and works again once the
// upstream recovers. One gateway per upstream route; the faults follow one another on it.
import t, { type Test } from 'tap'
import type { RouteKey } from '../../src/sandbox/app.js'
import { newWallet } from '../helpers/wallet.js'
import { eventually } from '../helpers/eventually.js'
import { assertProblem } from '../helpers/problem.js'
import { signedBody } from '../helpers/sign-in.js'
import { follow, STATUS_EVENT, STATUS_EVENTS, type StatusData } from '../helpers/sse.js'
import { type CallKind, expectedCode, FAULTS, type FaultName } from './faults.js'
import { type Answer, DEADLINE_MS, MARGIN_MS, type ReliableGateway, reliableGateway } from './setup.js'

const FAULT_NAMES = Object.keys(FAULTS) as FaultName[]

// The routes' gateways are independent: their faults run side by side, so the waits overlap.
t.jobs = 4
t.setTimeout(240_000)

interface RouteCase {
  route: RouteKey
  kind: CallKind
  /**
   * Prepares what the call needs (a session, a signed challenge) and returns the gateway call that
   * reaches this upstream route, so the fault meets that call alone.
   */
  prepare(gw: ReliableGateway): Promise<() => Promise<Answer>>
  /** Status of a normal answer. */
  okStatus: number
}

/** One session per gateway: the upstream refuses every refresh, so a session outlives the faults. */
const sessions = new WeakMap<ReliableGateway, Promise<{ bearer: Record<string, string> }>>()

async function signedCall(gw: ReliableGateway, path: string, method = 'GET') {
  if (!sessions.has(gw)) sessions.set(gw, gw.signedIn())
  const { bearer } = (await sessions.get(gw)) ?? { bearer: {} }
  return () => gw.call(path, { method, headers: bearer })
}

const ready = (send: () => Promise<Answer>) => Promise.resolve(send)

const ROUTES: RouteCase[] = [
  {
    route: 'GET /v1/tokens/swap-limits',
    kind: 'get',
    okStatus: 200,
    prepare: (gw) =>
      ready(() =>
        gw.call(`/api/v1/tokens/swap-limits?depositTokenId=${gw.p.usdtEth.id}&settleTokenId=${gw.p.eth.id}`),
      ),
  },
  {
    route: 'GET /v1/tokens/quote',
    kind: 'get',
    okStatus: 200,
    prepare: (gw) =>
      ready(() =>
        gw.call(
          `/api/v1/tokens/quote?depositTokenId=${gw.p.usdtEth.id}&settleTokenId=${gw.p.eth.id}&amount=100&amountIsDeposit=true`,
        ),
      ),
  },
  {
    route: 'POST /v1/orders/create',
    kind: 'create',
    okStatus: 201,
    prepare: (gw) => ready(() => gw.call('/api/v1/orders/create', { body: gw.order() })),
  },
  {
    route: 'GET /v1/orders/:uuid',
    kind: 'get',
    okStatus: 200,
    prepare: async (gw) => {
      const uuid = gw.control.orders()[0]?.uuid ?? (await newOrder(gw))
      return () => gw.call(`/api/v1/orders/${uuid}`)
    },
  },
  { route: 'GET /v1/orders', kind: 'get', okStatus: 200, prepare: (gw) => signedCall(gw, '/api/v1/orders') },
  {
    route: 'GET /auth/siwx/challenge',
    kind: 'get',
    okStatus: 200,
    prepare: (gw) =>
      ready(() => gw.call(`/api/auth/siwx/challenge?address=${newWallet().address}&chainId=1`)),
  },
  {
    route: 'POST /auth/siwx/verify',
    kind: 'post',
    okStatus: 201,
    prepare: async (gw) => {
      const wallet = newWallet()
      const challenge = await answered(() =>
        gw.call(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`),
      )
      const { message } = JSON.parse(challenge.body) as { message: string }
      const body = await signedBody(wallet, message)
      return () => gw.call('/api/auth/siwx/verify', { body })
    },
  },
  // The upstream refuses every refresh today: a recovered refresh is a lapsed session with a challenge.
  {
    route: 'POST /auth/refresh',
    kind: 'refresh',
    okStatus: 401,
    prepare: (gw) => signedCall(gw, '/api/auth/refresh', 'POST'),
  },
  { route: 'GET /auth/me', kind: 'get', okStatus: 200, prepare: (gw) => signedCall(gw, '/api/auth/me') },
]

async function newOrder(gw: ReliableGateway): Promise<string> {
  const res = await answered(() => gw.call('/api/v1/orders/create', { body: gw.order() }))
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`)
  return (JSON.parse(res.body) as { uuid: string }).uuid
}

/** A route the faulted upstream route has no part in: the catalog, from memory. */
const otherRoute = (gw: ReliableGateway) => gw.call(`/api/v1/tokens/${gw.p.eth.id}`)

/**
 * A call that may meet the deadline on a loaded machine (a sign-in's challenge, a first call),
 * repeated until it succeeds.
 */
async function answered(send: () => Promise<Answer>, ok = (a: Answer) => a.statusCode < 300) {
  let last = await send()
  for (let attempt = 0; attempt < 5 && !ok(last); attempt++) last = await send()
  return last
}

/** Past a 429's Retry-After on the gateway's clock, then the route must answer normally again. */
async function recovers(t: Test, gw: ReliableGateway, rc: RouteCase) {
  gw.control.clearFaults()
  gw.clock.advance(2_000)
  const send = await rc.prepare(gw)
  const again = await answered(send, (a) => a.statusCode === rc.okStatus)
  t.equal(again.statusCode, rc.okStatus, `${rc.route} answers normally again (${again.body.slice(0, 120)})`)
}

for (const rc of ROUTES) {
  t.test(`${rc.route}: every upstream fault gives the contract's code within the deadline`, async (t) => {
    const gw = await reliableGateway(t)
    // The first calls of a new gateway compile its code: on a loaded machine they may miss the deadline.
    await eventually(
      'a normal answer before the faults',
      // Preparing may sign in, which may itself miss the deadline then: that is tried again too.
      async () =>
        rc
          .prepare(gw)
          .then((send) => send())
          .then(
            (answer) => answer.statusCode === rc.okStatus,
            () => false,
          ),
      15_000,
    )
    for (const name of FAULT_NAMES) {
      await t.test(name, async (t) => {
        const ordersBefore = gw.control.orders().length
        const send = await rc.prepare(gw)
        gw.control.fault(rc.route, FAULTS[name])
        const [answer, other] = await Promise.all([send(), otherRoute(gw)])
        // Retries of a failing GET that run out of time are truthfully a timeout.
        const late =
          rc.kind === 'get' && answer.ms >= DEADLINE_MS && JSON.parse(answer.body).code === 'UPSTREAM_TIMEOUT'
        const code = late ? 'UPSTREAM_TIMEOUT' : expectedCode(rc.kind, name)
        assertProblem(t, answer, code, rc.kind === 'create' && code === 'UPSTREAM_ERROR' ? false : undefined)
        t.ok(answer.ms <= DEADLINE_MS + MARGIN_MS, `answered in ${Math.round(answer.ms)} ms`)
        t.equal(other.statusCode, 200, 'another route is served meanwhile')
        if (name === '429 with Retry-After') t.ok(answer.headers['retry-after'], 'Retry-After is passed on')
        if (rc.kind === 'create' && name === 'dropped after processing') {
          const created = gw.control.orders().slice(ordersBefore)
          t.equal(created.length, 1, 'the order exists upstream')
          const read = await gw.call(`/api/v1/orders/${created[0]?.uuid}`)
          t.equal(read.statusCode, 200, 'and the caller can read it')
        }
        await recovers(t, gw, rc)
      })
    }
  })
}

t.test('GET /v1/tokens: under every fault the catalog is served stale at once, fresh after', async (t) => {
  const gw = await reliableGateway(t, { env: { CATALOG_TTL_MS: '60000' } })
  await eventually('the start-up catalog', async () => {
    const res = await gw.call(`/api/v1/tokens/${gw.p.eth.id}`)
    return res.headers['x-cache-status'] === 'HIT'
  })
  for (const name of FAULT_NAMES) {
    await t.test(name, async (t) => {
      gw.clock.advance(61_000)
      gw.control.fault('GET /v1/tokens', FAULTS[name])
      const stale = await gw.call(`/api/v1/tokens/${gw.p.eth.id}`)
      t.equal(stale.statusCode, 200)
      t.equal(stale.headers['x-cache-status'], 'STALE', 'marked STALE')
      t.ok(stale.ms <= DEADLINE_MS + MARGIN_MS, `answered in ${Math.round(stale.ms)} ms`)
      const other = await gw.call(`/api/auth/siwx/challenge`)
      if (name === '429 with Retry-After') {
        // The upstream's 429 limits the tenant key: every upstream call pauses until its Retry-After.
        t.equal(other.statusCode, 503, 'upstream-bound routes pause until the Retry-After')
        t.ok(other.headers['retry-after'], 'and say when to come back')
      } else t.equal(other.statusCode, 200, 'another route is served meanwhile')
      await eventually('the reload to fail', () => gw.control.requestsTo('GET /v1/tokens').length > 0)
      gw.control.clearFaults()
      gw.clock.advance(2_000)
      await eventually('a fresh catalog again', async () => {
        const res = await gw.call(`/api/v1/tokens/${gw.p.eth.id}`)
        return res.headers['x-cache-status'] === 'HIT'
      })
      gw.control.clearRequests()
    })
  }
})

t.test('the status stream: under every fault a follower gets its snapshot and every status', async (t) => {
  const gw = await reliableGateway(t)
  // A stream never ends, so a trickled body is what it always is: that fault does not apply.
  for (const name of FAULT_NAMES.filter((n) => n !== 'body trickled past the deadline')) {
    await t.test(name, async (t) => {
      const uuid = await newOrder(gw)
      gw.control.fault('GET /orders/:orderUUID/status-stream', FAULTS[name])
      const started = performance.now()
      const follower = follow<StatusData>(t, `${gw.url}/api/orders/${uuid}/status-stream`, {
        events: STATUS_EVENTS,
      })
      await follower.until('the snapshot', () => follower.events.some((e) => e.type === 'snapshot'))
      const ms = performance.now() - started
      t.ok(ms <= DEADLINE_MS + MARGIN_MS, `snapshot in ${Math.round(ms)} ms`)
      t.equal((await otherRoute(gw)).statusCode, 200, 'another route is served meanwhile')
      gw.control.deposit(uuid)
      await follower.until('the deposit, read by polling', () =>
        follower.of(STATUS_EVENT).some((e) => e.data.status === 'AWAITING_USER_DEPOSIT_CONFIRMATIONS'),
      )
      gw.control.clearFaults()
      await eventually('the upstream subscription again', () => gw.control.openStreams(uuid) > 0)
      gw.control.confirm(uuid)
      gw.control.complete(uuid)
      await follower.until('the final state', () =>
        follower.of(STATUS_EVENT).some((e) => e.data.status === 'COMPLETED'),
      )
      follower.close()
    })
  }
})
