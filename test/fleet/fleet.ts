// A fleet as operators run it: `instances` gateways from the production build (`node dist/server.js`,
// NODE_ENV=production) behind haproxy, one private redis-server, and the sandbox as the upstream (in
// this process, behind a relay the test can close). Settings that are minutes in production are short
// here, through the same variables an operator sets.
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import tap, { type Test } from 'tap'
import type { SandboxControl } from '../../src/sandbox/app.js'
import { eventually } from '../helpers/eventually.js'
import { orderBody, picks } from '../helpers/picks.js'
import { startSandbox } from '../helpers/sandbox.js'
import { type Balancer, HAPROXY, startBalancer } from './balancer.js'
import { productionBuild } from './build.js'
import { type Child, installed, startChild } from './children.js'
import { type Relay, startRelay } from './relay.js'

const haproxyBinary = HAPROXY.find((b) => installed(b, '-v'))

/** Why the fleet cannot run here, or false: the suite skips with this message. */
export const fleetSkip: string | false = !haproxyBinary
  ? 'haproxy is not installed (apt-get install haproxy): the fleet suite is skipped'
  : !installed('redis-server', '--version')
    ? 'redis-server is not installed (apt-get install redis-server): the fleet suite is skipped'
    : false

/**
 * A fleet file's time limit, counted from when the shared build is ready: the first fleet file of a
 * checkout builds it (most of a minute on two cores, more when loaded) and the others wait for it
 * under the runner's own limit, so a slow build does not eat into the scenarios' time.
 */
export const SCENARIO_TIMEOUT_MS = 180_000

export const SESSION_SECRET = 'fleet-session-secret-0123456789-abcdefghij'

/** The balancer's check every 500 ms, out after 2 failures: an instance leaves within about 1.5 s. */
export const CHECK = { checkMs: 500, fall: 2, rise: 2 }

/** Short versions of the production intervals; SHUTDOWN_READY_DELAY_MS covers (fall + 1) checks. */
export const FLEET_ENV = {
  SHUTDOWN_READY_DELAY_MS: '2000',
  SHUTDOWN_TIMEOUT_MS: '5000',
  SSE_DRAIN_SPREAD_MS: '500',
  SSE_RETRY_MS: '200',
  SSE_HEARTBEAT_MS: '1000',
  REDIS_COMMAND_TIMEOUT_MS: '250',
  LOG_LEVEL: 'info',
}

export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

export interface PrivateRedis {
  url: string
  child: Child
  /** SIGSTOP: Redis hangs, its connections stay open and unanswered. */
  pause(): void
  resume(): void
  kill(): Promise<void>
  /** A fresh redis-server on the same port (empty: nothing is saved). */
  start(): Promise<void>
}

async function startRedis(t: Test): Promise<PrivateRedis> {
  const port = await freePort()
  const redis = {
    url: `redis://127.0.0.1:${port}`,
    child: undefined as unknown as Child,
    pause: () => redis.child.process.kill('SIGSTOP'),
    resume: () => redis.child.process.kill('SIGCONT'),
    kill: () => redis.child.kill(),
    async start() {
      redis.child = startChild('redis', 'redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ])
      await redis.child.waitFor('redis to start', (l) => /Ready to accept connections/.test(String(l.raw)))
    },
  }
  await redis.start()
  t.teardown(() => redis.kill())
  return redis
}

export interface Instance {
  name: string
  /** The instance's own address, for a client that reaches it directly. */
  url: string
  metricsUrl: string
  env: Record<string, string>
  /** The running process, replaced on each start. */
  child: Child
  /** Every process this instance ran, oldest first. */
  generations: Child[]
  start(): Promise<void>
}

export interface Fleet {
  url: string
  balancer: Balancer
  instances: Instance[]
  redis: PrivateRedis
  relay: Relay
  sandbox: { url: string; control: SandboxControl }
  tenantKey: string
  /** Orders made at the upstream directly (the gateway's create is not what the fleet tests), PROCESSING. */
  processingOrders(count: number): Promise<string[]>
  /** Waits until haproxy has every instance UP. */
  allUp(): Promise<void>
}

export interface FleetOptions {
  instances?: number
  /** Added to every instance's environment (FLEET_ENV and the production settings). */
  env?: Record<string, string>
  /** Added to one instance's environment. */
  instanceEnv?: (index: number) => Record<string, string>
  /** Wait for every instance to be in the pool before returning (default true). */
  waitUp?: boolean
}

export async function startFleet(t: Test, opts: FleetOptions = {}): Promise<Fleet> {
  const count = opts.instances ?? 3
  const tenantKey = `fleet-tenant-${randomBytes(8).toString('hex')}`
  const [build, sandbox, redis] = await Promise.all([
    productionBuild(),
    startSandbox(t, { tenantKey }),
    startRedis(t),
  ])
  tap.setTimeout(SCENARIO_TIMEOUT_MS)
  const relay = await startRelay(t, sandbox.url)
  const lbPort = await freePort()
  const instances: Instance[] = []
  for (let i = 0; i < count; i++) {
    const [port, metricsPort] = [await freePort(), await freePort()]
    const env = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      UPSTREAM_URL: relay.url,
      TENANT_API_KEY: tenantKey,
      SESSION_SECRET,
      PUBLIC_ORIGIN: `http://127.0.0.1:${lbPort}`,
      REDIS_URL: redis.url,
      TRUST_PROXY: '127.0.0.1',
      ...FLEET_ENV,
      ...opts.env,
      ...opts.instanceEnv?.(i),
    }
    const instance: Instance = {
      name: `g${i + 1}`,
      url: `http://127.0.0.1:${port}`,
      metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
      env,
      child: undefined as unknown as Child,
      generations: [],
      async start() {
        const child = startChild(instance.name, process.execPath, [join(build, 'dist', 'server.js')], {
          cwd: build,
          env,
        })
        instance.child = child
        instance.generations.push(child)
        await child.waitFor('the gateway to listen', (l) => /Server listening at/.test(String(l.msg)))
      },
    }
    instances.push(instance)
  }
  t.teardown(() => Promise.all(instances.flatMap((i) => i.generations.map((c) => c.kill()))))
  await Promise.all(instances.map((i) => i.start()))
  const balancer = await startBalancer(t, haproxyBinary!, {
    port: lbPort,
    servers: instances.map((i) => ({ name: i.name, port: Number(i.env.PORT) })),
    ...CHECK,
  })
  const allUp = () =>
    eventually(
      'every instance in the pool',
      async () => Object.values(await balancer.states()).every((s) => s === 'UP'),
      30_000,
    )
  if (opts.waitUp !== false) await allUp()
  const p = picks(sandbox.control.tokens())
  const processingOrders = async (n: number) => {
    const uuids: string[] = []
    for (let i = 0; i < n; i++) {
      const res = await sandbox.app.inject({
        method: 'POST',
        url: '/v1/orders/create',
        headers: { 'x-tenant-api-key': tenantKey },
        payload: orderBody(p),
      })
      const uuid = res.json<{ uuid: string }>().uuid
      sandbox.control.deposit(uuid)
      sandbox.control.confirm(uuid)
      uuids.push(uuid)
    }
    return uuids
  }
  return { url: balancer.url, balancer, instances, redis, relay, sandbox, tenantKey, allUp, processingOrders }
}

/** SIGTERM, then the exit code and how long the process took to exit. */
export async function terminate(instance: Instance): Promise<{ code: number | null; ms: number }> {
  const started = Date.now()
  instance.child.process.kill('SIGTERM')
  const code = await instance.child.exited
  return { code, ms: Date.now() - started }
}
