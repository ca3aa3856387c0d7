// The wallet-stream benchmark (npm run bench wallet): on one gateway process, the heap an open wallet
// stream costs beside a status stream's, and the delay from an order event (published on the gateway's
// order-event bus, as the watch publishes it) to the last of 1,000 open wallet streams receiving it.
// Processes as in the status-stream benchmark: this one (orchestrator and sandbox), the gateway, the
// clients.
import type { AddressInfo } from 'node:net'
import { buildSandbox } from '../../src/sandbox/app.js'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { newWallet } from '../helpers/wallet.js'
import { BENCH_TENANT_KEY, benchPair } from './setup.js'
import { type Message, type Peer, spawnPeer } from './stream-ipc.js'

const USERS = Number(process.env.BENCH_WALLET_USERS ?? 100)
const PER_USER = Number(process.env.BENCH_WALLET_PER_USER ?? 10)
const CONCURRENCY = 100
const SETTLE_MS = 2_000
/** With REDIS_URL the gateway keeps the wallet log in Redis and fans events out through it, as a fleet does. */
const REDIS_URL = process.env.REDIS_URL

type Order = OrderEvent['order']
interface Memory extends Message {
  heapUsed: number
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

/** A user signed in as an app does (token mode), with one order of their own. */
async function user(gateway: string, pair: ReturnType<typeof benchPair>) {
  const wallet = newWallet()
  const challenge = (await (
    await fetch(`${gateway}/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`)
  ).json()) as { message: string }
  const signature = await wallet.signMessage({ message: challenge.message })
  const verify = await fetch(`${gateway}/api/auth/siwx/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-mode': 'token' },
    body: JSON.stringify({
      data: { chainId: '1', accountAddress: wallet.address },
      message: challenge.message,
      signature,
    }),
  })
  const { sessionToken } = (await verify.json()) as { sessionToken: string }
  const authorization = `Bearer ${sessionToken}`
  const created = await fetch(`${gateway}/api/v1/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({
      depositTokenId: pair.usdt.id,
      settleTokenId: pair.eth.id,
      receivingAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      intendedAmount: 100,
      intendedIsDeposit: true,
    }),
  })
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`)
  return { authorization, order: (await created.json()) as Order }
}

/** Heap growth per stream of the gateway, opening `urls` (× PER_USER) from a fresh client process. */
async function heapPerStream(gateway: Peer, urls: string[], authorizations?: string[]) {
  const client = await spawnPeer('./stream-client.ts')
  await settle()
  const before = await gateway.ask<Memory>({ type: 'measure' }, 'memory')
  const opened = await client.ask<Message & { count: number }>(
    { type: 'open', urls, perUrl: PER_USER, concurrency: CONCURRENCY, authorizations },
    'opened',
  )
  const after = await gateway.ask<Memory>({ type: 'measure' }, 'memory')
  return { client, count: opened.count, perStream: (after.heapUsed - before.heapUsed) / opened.count }
}

export async function benchWallet() {
  const { app: sandboxApp, control } = buildSandbox({ tenantKey: BENCH_TENANT_KEY })
  await sandboxApp.listen({ port: 0, host: '127.0.0.1' })
  const upstream = `http://127.0.0.1:${(sandboxApp.server.address() as AddressInfo).port}`
  const gateway = await spawnPeer('./stream-gateway.ts', [
    upstream,
    JSON.stringify(REDIS_URL ? { REDIS_URL } : {}),
  ])
  const peers: Peer[] = [gateway]
  try {
    const url = String(gateway.ready.url)
    const pair = benchPair(control.tokens())
    const users = []
    for (let n = 0; n < USERS; n++) users.push(await user(url, pair))

    const status = await heapPerStream(
      gateway,
      users.map((u) => `${url}/api/orders/${u.order.uuid}/status-stream`),
    )
    status.client.stop()
    const wallet = await heapPerStream(
      gateway,
      users.map(() => `${url}/api/v1/orders/stream`),
      users.map((u) => u.authorization),
    )
    peers.push(wallet.client)

    // One status change of every user's order, published at once: the delay to the last stream.
    await settle()
    const done = wallet.client.ask<Message & { count?: number; connections: number; last?: number }>(
      { type: 'await-round', round: 1, timeoutMs: 60_000 },
      'round',
    )
    const events: OrderEvent[] = users.map(({ order }) => ({
      id: `${order.uuid}.AWAITING_USER_DEPOSIT_CONFIRMATIONS`,
      type: 'order.status_changed',
      timestamp: new Date().toISOString(),
      orderId: order.uuid,
      status: 'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
      previousStatus: 'AWAITING_USER_DEPOSIT',
      userId: order.userId,
      order: { ...order, status: 'AWAITING_USER_DEPOSIT_CONFIRMATIONS' },
    }))
    const { t0 } = await gateway.ask<Message & { t0: number }>({ type: 'publish', events }, 'published')
    const round = await done
    if (round.count !== round.connections || round.last === undefined)
      throw new Error(`only ${round.count ?? 0} of ${round.connections} wallet streams received the event`)

    const kb = (bytes: number) => (bytes / 1024).toFixed(2)
    const via = REDIS_URL ? 'events through Redis' : 'events in memory (set REDIS_URL for Redis)'
    console.log(`\nwallet streams: ${USERS} users × ${PER_USER} streams each, ${via}`)
    console.log(
      `heap per open status stream (KB)   ${kb(status.perStream).padStart(8)}  (${status.count} streams)`,
    )
    console.log(
      `heap per open wallet stream (KB)   ${kb(wallet.perStream).padStart(8)}  (${wallet.count} streams)`,
    )
    console.log(
      `order event → last of ${wallet.count} wallet streams (ms)   ${(round.last - t0).toFixed(1)}  (${USERS} events, one per user)`,
    )
  } finally {
    for (const p of peers) p.stop()
    await sandboxApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWallet()
