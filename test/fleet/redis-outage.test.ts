// Redis hung (SIGSTOP), then killed and started again empty. A hung Redis costs a request at most one
// command deadline, and once an instance knows, nothing: /readyz shows it as degraded (200) and
// gateway_redis_up is 0. A logout and an Idempotency-Key record taken during the outage are written
// to Redis when it answers again, so every instance honours them afterwards.
import { connect } from 'node:net'
import t from 'tap'
import { fetch } from 'undici'
import { Client } from '../auth/client.js'
import { eventually } from '../helpers/eventually.js'
import { orderBody, picks } from '../helpers/picks.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { type Fleet, fleetSkip, startFleet } from './fleet.js'

/** Long enough that a request waiting on Redis stands out from a loaded machine's slowest answers. */
const DEADLINE_MS = 1000

async function timed(url: string, headers: Record<string, string> = {}) {
  const started = performance.now()
  const res = await fetch(url, { headers })
  await res.text()
  return { status: res.status, ms: Math.round(performance.now() - started) }
}

async function readyz(fleet: Fleet) {
  return Promise.all(
    fleet.instances.map(async (i) => {
      const res = await fetch(`${i.url}/readyz`)
      return { status: res.status, body: (await res.json()) as { degraded?: Record<string, string> } }
    }),
  )
}

async function redisUp(fleet: Fleet) {
  return Promise.all(
    fleet.instances.map(async (i) => {
      const text = await (await fetch(i.metricsUrl)).text()
      return Number(/^gateway_redis_up (\d+)/m.exec(text)?.[1])
    }),
  )
}

/** KEYS on the fleet's Redis, spoken directly (RESP): how many keys match. */
function countKeys(url: string, pattern: string): Promise<number> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    let reply = ''
    const s = connect(Number(port), '127.0.0.1', () =>
      s.write(`*2\r\n$4\r\nKEYS\r\n$${Buffer.byteLength(pattern)}\r\n${pattern}\r\n`),
    )
    s.setEncoding('utf8')
    s.on('data', (d: string) => {
      reply += d
      const count = /^\*(-?\d+)\r\n/.exec(reply)
      if (count) {
        s.destroy()
        resolve(Math.max(0, Number(count[1])))
      }
    })
    s.on('error', reject)
  })
}

t.test(
  'a hung, then restarted Redis: bounded latency, degraded, records written back',
  { skip: fleetSkip },
  async (t) => {
    const fleet = await startFleet(t, { env: { REDIS_COMMAND_TIMEOUT_MS: String(DEADLINE_MS) } })
    const signedIn = async () => {
      const { verify } = await signInThroughGateway(new Client(fleet.url, null), newWallet(), '1', {
        'x-session-mode': 'token',
      })
      if (verify.status !== 201) throw new Error(`sign-in failed: ${verify.text}`)
      return { authorization: `Bearer ${(verify.json as { sessionToken: string }).sessionToken}` }
    }
    const [user, leaving] = [await signedIn(), await signedIn()]
    const requests = () => [timed(`${fleet.url}/api/v1/tokens`), timed(`${fleet.url}/api/auth/session`, user)]
    t.same(
      (await readyz(fleet)).map((r) => r.body.degraded),
      [undefined, undefined, undefined],
      'nothing degraded',
    )

    fleet.redis.pause()
    const whileFinding = []
    for (let i = 0; i < 6; i++) for (const r of requests()) whileFinding.push(await r)
    await eventually(
      'every instance to show Redis as degraded',
      async () =>
        (await readyz(fleet)).every((r) => r.status === 200 && r.body.degraded?.redis !== undefined),
      30_000,
    )
    t.same(await redisUp(fleet), [0, 0, 0], 'gateway_redis_up is 0 on every instance')
    const afterwards = []
    for (let i = 0; i < 6; i++) for (const r of requests()) afterwards.push(await r)

    t.same(
      [...whileFinding, ...afterwards].filter((r) => r.status !== 200),
      [],
      'every request is served while Redis hangs',
    )
    t.same(
      whileFinding.filter((r) => r.ms >= 2 * DEADLINE_MS),
      [],
      `no request waits more than one command deadline (${DEADLINE_MS} ms): ${whileFinding.map((r) => r.ms)}`,
    )
    t.same(
      afterwards.filter((r) => r.ms >= DEADLINE_MS),
      [],
      `once Redis is known to be down, no request waits on it: ${afterwards.map((r) => r.ms)}`,
    )

    // A logout and a keyed create during the outage, each on whichever instance the balancer picks.
    const logout = await fetch(`${fleet.url}/api/auth/logout`, { method: 'POST', headers: leaving })
    t.equal(logout.status, 204, 'logout during the outage')
    const key = `fleet-${Date.now()}`
    const body = JSON.stringify(orderBody(picks(fleet.sandbox.control.tokens())))
    const create = (base: string) =>
      fetch(`${base}/api/v1/orders/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body,
      })
    const created = await create(fleet.url)
    t.equal(created.status, 201, 'a keyed create during the outage')
    const { uuid } = (await created.json()) as { uuid: string }

    await fleet.redis.kill()
    await fleet.redis.start()
    await eventually(
      'every instance to use Redis again',
      async () => (await readyz(fleet)).every((r) => r.body.degraded?.redis === undefined),
      30_000,
    )
    t.same(await redisUp(fleet), [1, 1, 1], 'gateway_redis_up is 1 again')
    await eventually(
      'the outage records written back',
      async () =>
        (await countKeys(fleet.redis.url, 'swap-gateway:revoked:*')) > 0 &&
        (await countKeys(fleet.redis.url, `swap-gateway:idempotency:*${key}*`)) > 0,
      15_000,
    )

    for (const instance of fleet.instances) {
      const session = await fetch(`${instance.url}/api/auth/session`, { headers: leaving })
      t.same(await session.json(), { signedIn: false }, `${instance.name}: the logout holds`)
      const again = await create(instance.url)
      t.equal(again.status, 201, `${instance.name}: the retried create answers`)
      t.equal(again.headers.get('idempotent-replayed'), 'true', `${instance.name}: as a replay`)
      t.equal(((await again.json()) as { uuid: string }).uuid, uuid, `${instance.name}: with the first order`)
    }
    t.equal(fleet.sandbox.control.orders().length, 1, 'one order upstream')
  },
)
