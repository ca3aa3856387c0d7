// Behind the balancer each client is keyed by its own address (TRUST_PROXY names the balancer, which
// appends the address it saw to X-Forwarded-For), and a client reaching an instance directly cannot
// choose its key by sending that header. Clients are told apart by their loopback source addresses.
import { Agent, fetch } from 'undici'
import t from 'tap'
import { fleetSkip, startFleet } from './fleet.js'

const LIMIT = 4
const RATE_LIMITS = JSON.stringify({ catalog: { max: LIMIT, timeWindow: '1 minute' } })

/** A client whose connections leave from `address` (the balancer listens on 127.0.0.1). */
function clientAt(address: string) {
  const agent = new Agent({ localAddress: address })
  return {
    async get(url: string, headers: Record<string, string> = {}) {
      const res = await fetch(url, { dispatcher: agent, headers })
      await res.text()
      return { status: res.status, remaining: res.headers.get('x-ratelimit-remaining') }
    },
    close: () => agent.close(),
  }
}

t.test(
  'clients behind the balancer are keyed by their own addresses, fleet-wide',
  { skip: fleetSkip },
  async (t) => {
    const fleet = await startFleet(t, { env: { RATE_LIMITS } })
    const [alice, bob, direct] = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map(clientAt)
    t.teardown(() => Promise.all([alice, bob, direct].map((c) => c!.close())))
    const catalog = `${fleet.url}/api/v1/tokens`

    // Round robin spreads Alice's requests over the three instances; her budget is one for the fleet.
    const aliceSeen = []
    for (let i = 0; i <= LIMIT; i++) aliceSeen.push((await alice!.get(catalog)).status)
    t.same(aliceSeen, [200, 200, 200, 200, 429], `Alice has ${LIMIT} requests, wherever they land`)

    // Bob, behind the same balancer, and claiming to be someone else: keyed by his own address.
    const bobFirst = await bob!.get(catalog, { 'x-forwarded-for': '127.0.0.2' })
    t.same(
      bobFirst,
      { status: 200, remaining: String(LIMIT - 1) },
      "Bob's budget is his own, whatever he sends",
    )

    // A client that reaches an instance directly and names Bob's address: its own key, not Bob's.
    const instance = fleet.instances[0]!.url
    const directSeen = []
    for (let i = 0; i <= LIMIT; i++)
      directSeen.push(
        (await direct!.get(`${instance}/api/v1/tokens`, { 'x-forwarded-for': '127.0.0.3' })).status,
      )
    t.same(directSeen, [200, 200, 200, 200, 429], 'the direct client spends its own budget')
    t.same(
      await bob!.get(catalog),
      { status: 200, remaining: String(LIMIT - 2) },
      "Bob's budget is untouched by the direct client's requests",
    )
  },
)
