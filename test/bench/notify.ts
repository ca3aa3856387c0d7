// The notifications benchmark (npm run bench notify). Processes: this one (orchestrator, the sandbox,
// the webhook receiver and the push service double), a private redis-server on a free port, and each
// gateway in its own process (notify-gateway.ts). Orders are made at the sandbox directly and handed
// to the watch with `orderWatch.follow`, as the push subscribe route does. Each step has a time limit
// and prints what it reached when it runs out. Sizes: BENCH_WATCHED, BENCH_TAKEOVER,
// BENCH_WEBHOOK_EVENTS, BENCH_PUSHES; BENCH_NOTIFY_STEPS=1,3 runs those steps only.
//   1. upstream subscriptions for BENCH_WATCHED orders on three gateways sharing one Redis
//   2. heap per watched order on one of them, against its heap before any watch
//   3. two gateways taking over BENCH_TAKEOVER watches after the third is killed (SIGKILL)
//   4. webhook deliveries per second of one gateway to a node:http receiver answering 204
//   5. CPU per Web Push message of one gateway, to a push service double answering 201
import { spawn } from 'node:child_process'
import { createECDH, randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEFAULT_TUNING } from '../../src/deliveries/channel.js'
import { generateVapidKeys } from '../../src/push/vapid-keys.js'
import { buildSandbox } from '../../src/sandbox/app.js'
import { freePort } from '../helpers/ports.js'
import { orderBody, picks } from '../helpers/picks.js'
import { BENCH_TENANT_KEY } from './setup.js'
import { cpuMicrosOf } from './spawn.js'
import { type Message, type Peer, spawnPeer } from './stream-ipc.js'

const WATCHED = Number(process.env.BENCH_WATCHED ?? 10_000)
const TAKEOVER = Number(process.env.BENCH_TAKEOVER ?? 3_000)
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000)
const PUSHES = Number(process.env.BENCH_PUSHES ?? 1_000)
const LEASE_MS = 2_000
/** Subscriptions per order in the push step (WEB_PUSH_MAX_PER_ORDER's default). */
const PER_ORDER = 5
/** Which steps run (2 comes with 1): a step alone runs on a sandbox of its own orders only. */
const STEPS = new Set((process.env.BENCH_NOTIFY_STEPS ?? '1,3,4,5').split(','))
/** A step's time limit. */
const STEP_MS = Number(process.env.BENCH_STEP_MS ?? 280_000)
/** How long a gateway's idle CPU is measured. */
const IDLE_MS = 3_000

interface Memory extends Message {
  heapUsed: number
  stats: { upstreamSubscriptions: number }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `reached` every 100 ms until it is true or `limitMs` pass; the time taken, or undefined. */
async function until(reached: () => boolean, limitMs: number): Promise<number | undefined> {
  const t0 = performance.now()
  while (!reached()) {
    if (performance.now() - t0 > limitMs) return undefined
    await sleep(100)
  }
  return performance.now() - t0
}

/** A redis-server of this benchmark's own on a free port, saving nothing. */
async function privateRedis() {
  const port = await freePort()
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  await new Promise<void>((resolve, reject) => {
    let seen = ''
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (seen.includes('Ready to accept connections')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)))
  })
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') }
}

/** A node:http server answering every request with `status`, counting requests by `key`. */
async function receiver(status: number, key: (req: IncomingMessage) => string) {
  const seen = new Set<string>()
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      seen.add(key(req))
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, seen, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** A gateway's CPU µs per ms while idle (watch rounds, the channels' polls): taken off the figures. */
async function idleCpuPerMs(cpu: () => number | Promise<number>) {
  const start = await cpu()
  await sleep(IDLE_MS)
  return ((await cpu()) - start) / IDLE_MS
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits })

export async function benchNotify() {
  const { app: sandboxApp, control } = buildSandbox({ tenantKey: BENCH_TENANT_KEY, idleCloseMs: 3_600_000 })
  await sandboxApp.listen({ port: 0, host: '127.0.0.1' })
  const upstream = `http://127.0.0.1:${(sandboxApp.server.address() as AddressInfo).port}`
  const pair = picks(control.tokens())
  const peers: Peer[] = []
  const cleanups: (() => unknown)[] = []
  const gateway = async (env: Record<string, string>) => {
    const peer = await spawnPeer('./notify-gateway.ts', [upstream, JSON.stringify(env)])
    peers.push(peer)
    return peer
  }
  const stopAll = async () => {
    for (const p of peers.splice(0)) p.stop()
    for (const c of cleanups.splice(0)) await c()
    control.closeStreams()
  }
  /** Orders made at the sandbox directly, left awaiting their deposit (watched until then). */
  const newOrders = async (count: number) => {
    const uuids: string[] = []
    for (let n = 0; n < count; n++) {
      const res = await sandboxApp.inject({
        method: 'POST',
        url: '/v1/orders/create',
        headers: { 'x-tenant-api-key': BENCH_TENANT_KEY },
        payload: orderBody(pair),
      })
      uuids.push(res.json<{ uuid: string }>().uuid)
    }
    return uuids
  }
  const fleet = async (env: Record<string, string>) => {
    const redis = await privateRedis()
    cleanups.push(redis.stop)
    return Promise.all([0, 1, 2].map(() => gateway({ REDIS_URL: redis.url, ...env })))
  }
  const follow = (instances: Peer[], uuids: string[]) =>
    Promise.all(
      instances.map((p, i) =>
        p.ask({ type: 'follow', uuids: uuids.filter((_, n) => n % instances.length === i) }, 'followed'),
      ),
    )

  try {
    if (STEPS.has('1')) {
      // 1 and 2: N watched orders spread over three gateways; the sandbox counts the open streams.
      console.log(
        `\nnotifications: ${fmt(WATCHED)} watched orders, three gateways (own processes), one Redis`,
      )
      const uuids = await newOrders(WATCHED)
      const three = await fleet({})
      const before = await Promise.all(three.map((p) => p.ask<Memory>({ type: 'measure' }, 'memory')))
      const t0 = performance.now()
      await follow(three, uuids)
      let most = 0
      const reached = await until(() => {
        most = Math.max(most, control.openStreams())
        return control.openStreams() >= WATCHED
      }, STEP_MS)
      const took = reached === undefined ? undefined : performance.now() - t0
      // Two lease renewals and claim rounds later: nothing subscribes twice meanwhile.
      const settleUntil = performance.now() + 12_000
      await until(() => {
        most = Math.max(most, control.openStreams())
        return performance.now() > settleUntil
      }, 15_000)
      const after = await Promise.all(three.map((p) => p.ask<Memory>({ type: 'measure' }, 'memory')))
      const subs = after.map((m) => m.stats.upstreamSubscriptions)
      console.log(
        `upstream order streams open at the sandbox   ${fmt(control.openStreams())} (most seen ${fmt(most)}; ` +
          `${took === undefined ? `not all within ${STEP_MS / 1000} s` : `all open ${fmt(took / 1000, 1)} s after the follows began`}, ` +
          `then watched 12 s more for a second subscription); per gateway ${subs.map((s) => fmt(s)).join(' + ')}; ` +
          `${(control.openStreams() / WATCHED).toFixed(2)} per watched order`,
      )
      const perOrder = after.map((m, i) => (m.heapUsed - before[i]!.heapUsed) / Math.max(1, subs[i]!))
      console.log(
        `heap per watched order (KB, after GC)        ${perOrder.map((b) => (b / 1024).toFixed(2)).join(' / ')} ` +
          `(each gateway: heap growth over its heap before any watch ÷ its upstream subscriptions)`,
      )
      await stopAll()
    }

    if (STEPS.has('3')) {
      // 3: a third of the watches lose their holder at once; the others take them over.
      const lease = await fleet({ WATCH_LEASE_MS: String(LEASE_MS) })
      await follow(lease, await newOrders(TAKEOVER))
      const allOpen = await until(() => control.openStreams() >= TAKEOVER, STEP_MS)
      if (allOpen === undefined)
        console.log(`takeover: only ${control.openStreams()} of ${TAKEOVER} streams opened`)
      await sleep(3 * LEASE_MS)
      const killed = lease[2]!
      // What it held: counted at the sandbox as its streams close, one would catch only the first few.
      const orphaned = (await killed.ask<Memory>({ type: 'measure' }, 'memory')).stats.upstreamSubscriptions
      killed.stop()
      const killedAt = performance.now()
      await until(() => control.openStreams() < TAKEOVER, 5_000)
      const back = await until(() => control.openStreams() >= TAKEOVER, STEP_MS)
      console.log(
        `takeover of ${fmt(orphaned)} watches (SIGKILL of 1 of 3, WATCH_LEASE_MS ${LEASE_MS})   ` +
          (back === undefined
            ? `not done within ${STEP_MS / 1000} s: ${fmt(control.openStreams())} of ${fmt(TAKEOVER)} streams open`
            : `${fmt((performance.now() - killedAt) / 1000, 2)} s from the kill to every order's stream open again (lease included)`),
      )
      await stopAll()
    }

    if (STEPS.has('4')) {
      // 4: webhooks, one gateway, each event of a distinct order.
      const hooks = await receiver(204, (req) => String(req.headers['webhook-id']))
      cleanups.push(hooks.close)
      const redis = await privateRedis()
      cleanups.push(redis.stop)
      const [template] = await newOrders(1)
      const hooked = await gateway({
        REDIS_URL: redis.url,
        WEBHOOK_URLS: `${hooks.origin}/hook`,
        WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      })
      const hookCpu = () => cpuMicrosOf(hooked.child.pid)!
      await sleep(IDLE_MS) // past its start-up's compilation
      const hookIdle = await idleCpuPerMs(hookCpu)
      const cpu0 = hookCpu()
      const h0 = performance.now()
      await hooked.ask({ type: 'publish-distinct', uuid: template, count: WEBHOOK_EVENTS }, 'published')
      const delivered = await until(() => hooks.seen.size >= WEBHOOK_EVENTS, STEP_MS)
      const hookMs = performance.now() - h0
      const netCpu = hookCpu() - cpu0 - hookIdle * hookMs
      const { batch, maxInFlight } = DEFAULT_TUNING
      console.log(
        `webhook deliveries per second, one gateway   ${fmt((hooks.seen.size * 1000) / hookMs, 1)} ` +
          `(${fmt(hooks.seen.size)} of ${fmt(WEBHOOK_EVENTS)} events, each of its own order, delivered in ${fmt(hookMs / 1000, 1)} s` +
          `${delivered === undefined ? ', time limit reached' : ''}; from the first publish to the last distinct webhook-id received; ` +
          `the channel claims ${batch} at a time, again as attempts settle, at most ${maxInFlight} in flight; ` +
          `gateway CPU ${fmt(netCpu / Math.max(1, hooks.seen.size))} µs per delivery net of idle, /proc)`,
      )
      await stopAll()
    }

    if (STEPS.has('5')) {
      // 5: Web Push, one gateway, PER_ORDER browsers (node:crypto P-256 keys) on each order.
      const service = await receiver(201, (req) => String(req.url))
      cleanups.push(service.close)
      const pushRedis = await privateRedis()
      cleanups.push(pushRedis.stop)
      const keys = generateVapidKeys()
      const pusher = await gateway({
        REDIS_URL: pushRedis.url,
        WEB_PUSH_PUBLIC_KEY: keys.publicKey,
        WEB_PUSH_PRIVATE_KEY: keys.privateKey,
        WEB_PUSH_SUBJECT: 'mailto:bench@example.com',
        WEB_PUSH_ALLOW_LOCAL_ENDPOINTS: 'true',
      })
      const orders = await newOrders(Math.ceil(PUSHES / PER_ORDER))
      const subscriptions = Array.from({ length: orders.length * PER_ORDER }, (_, n) => {
        const ecdh = createECDH('prime256v1')
        ecdh.generateKeys()
        const body = {
          endpoint: `${service.origin}/push/${randomUUID()}`,
          keys: {
            p256dh: ecdh.getPublicKey().toString('base64url'),
            auth: randomBytes(16).toString('base64url'),
          },
        }
        return { uuid: orders[n % orders.length]!, body }
      })
      const sub = await pusher.ask<Message & { failed: number; refused: string }>(
        { type: 'subscribe', subscriptions },
        'subscribed',
      )
      if (sub.failed > 0) console.log(`push: ${sub.failed} subscriptions refused (${sub.refused})`)
      await sleep(2_000)
      service.seen.clear()
      const want = subscriptions.length - sub.failed
      const cpuNow = async () => {
        const c = await pusher.ask<Message & { user: number; system: number }>({ type: 'cpu' }, 'cpu')
        return c.user + c.system
      }
      const idlePerMs = await idleCpuPerMs(cpuNow)
      const c0 = await cpuNow()
      const p0 = performance.now()
      await pusher.ask({ type: 'publish-orders', uuids: orders }, 'published')
      const pushed = await until(() => service.seen.size >= want, STEP_MS)
      const pushMs = performance.now() - p0
      const cpu = (await cpuNow()) - c0
      const perPush = (micros: number) => fmt(micros / Math.max(1, service.seen.size))
      console.log(
        `CPU per Web Push message (µs)                ${perPush(cpu - idlePerMs * pushMs)} net of idle, ${perPush(cpu)} gross ` +
          `(process.cpuUsage of the gateway from publishing ${fmt(orders.length)} events to the double's ` +
          `${fmt(service.seen.size)}th push of ${fmt(want)}${pushed === undefined ? ', time limit reached' : ''}, ` +
          `${fmt(pushMs / 1000, 1)} s; idle ${fmt(idlePerMs * 1000)} µs/s over ${IDLE_MS / 1000} s before; ` +
          `encryption, VAPID signature, delivery records in Redis)`,
      )
    }
  } finally {
    await stopAll()
    await sandboxApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchNotify()
