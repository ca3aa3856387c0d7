// Quote and order-read throughput and latency, in one run, for three setups: direct to the sandbox,
// a bare @fastify/http-proxy that only injects the key (the baseline), and the gateway with every
// feature on. The setups take turns, round after round and in a rotating order, so a drift in the
// machine's speed hits them alike; each ratio is the median of the rounds' own ratios. Loopback
// only; bounded in time.
import autocannon from 'autocannon'
import { Pool } from 'undici'
import { median } from './median.js'
import { BENCH_TENANT_KEY, benchPair, createOrders } from './setup.js'
import { startTarget, type Target } from './spawn.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
/** A second bare proxy in the gateway's place: how far two identical servers differ on this machine. */
const CONTROL = process.env.BENCH_CONTROL === '1'
/** The gateway exports spans, to a local sink unless OTEL_EXPORTER_OTLP_ENDPOINT names a collector. */
const TRACING = process.env.BENCH_TRACING === '1' || process.env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined

interface Result {
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  /** CPU the measured server spent per request, in µs (steadier than throughput on a shared machine). */
  cpuPerRequest?: number
}

/** The direct setup must bring the tenant key itself; the proxies inject it. */
const KEY_HEADERS = { 'x-tenant-api-key': BENCH_TENANT_KEY }

async function load(target: Target, connections: number, paths: string[]): Promise<Result> {
  let i = 0
  const cpuBefore = target.cpuMicros()
  const r = await autocannon({
    url: target.url,
    connections,
    headers: KEY_HEADERS,
    duration: SECONDS,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  })
  const cpuAfter = target.cpuMicros()
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    ...(cpuBefore !== undefined && cpuAfter !== undefined
      ? { cpuPerRequest: (cpuAfter - cpuBefore) / r.requests.total }
      : {}),
  }
}

/** One connection, one request at a time, timed with sub-millisecond resolution. */
async function sequential(url: string, paths: string[]): Promise<Result> {
  const pool = new Pool(url, { connections: 1 })
  const times: number[] = []
  let errors = 0
  let non2xx = 0
  const end = performance.now() + SECONDS * 1000
  try {
    for (let i = 0; performance.now() < end; i++) {
      const started = performance.now()
      try {
        const res = await pool.request({
          method: 'GET',
          path: paths[i % paths.length]!,
          headers: KEY_HEADERS,
        })
        await res.body.dump()
        if (res.statusCode >= 300) non2xx++
      } catch {
        errors++
      }
      times.push(performance.now() - started)
    }
  } finally {
    await pool.close()
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => Math.round((times[Math.floor(q * (times.length - 1))] ?? 0) * 1000) / 1000
  return { rps: times.length / SECONDS, p50: at(0.5), p99: at(0.99), errors, non2xx }
}

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return res.json()
}

export async function benchCore() {
  const sandbox = await startTarget(['sandbox'])
  const running = new Set<Target>([sandbox])
  if (TRACING && process.env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined) {
    const sink = await startTarget(['otlp-sink'])
    running.add(sink)
    // Inherited by the gateways started from here on (the other targets ignore it).
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url
  }
  const start = async (args: string[]) => {
    const target = await startTarget(args)
    running.add(target)
    return target
  }
  const stop = (target: Target) => {
    target.stop()
    running.delete(target)
  }
  try {
    const tokens = (await json(`${sandbox.url}/v1/tokens`)) as Parameters<typeof createOrders>[1]
    const { usdt, eth } = benchPair(tokens)
    const seeder = await start(['gateway', sandbox.url])
    const uuids = await createOrders(seeder.url, tokens, 100)
    stop(seeder)
    // Distinct amounts and orders, so the gateway's coalescing does not flatter it.
    const quotePaths = (prefix: string) =>
      Array.from(
        { length: 1000 },
        (_, n) =>
          `${prefix}/v1/tokens/quote?depositTokenId=${usdt.id}&settleTokenId=${eth.id}&amount=${100 + n}&amountIsDeposit=true`,
      )
    const readPaths = (prefix: string) => uuids.map((u) => `${prefix}/v1/orders/${u}`)
    const rounds: Record<string, Result[]> = {}
    const record = (key: string, r: Result) => (rounds[key] ??= []).push(r)
    for (let round = 0; round < ROUNDS; round++) {
      // A new proxy and gateway each round: one process keeps the speed it settled into for its whole
      // life (one bare proxy ran at about 293k instructions per quote, another at about 378k, and
      // the gateway's ratio to it followed), so each round draws both anew.
      const proxy = await start(['proxy', sandbox.url])
      const gateway = await start([CONTROL ? 'proxy' : 'gateway', sandbox.url])
      const setups = [
        ['direct', sandbox, ''],
        ['bare proxy', proxy, '/api'],
        ['gateway', gateway, '/api'],
      ] as const
      // Each round starts with the next setup, so none always runs right after the same other one.
      const turn = [...setups.slice(round % setups.length), ...setups.slice(0, round % setups.length)]
      for (const [route, paths] of [
        ['quote', quotePaths],
        ['order read', readPaths],
      ] as const) {
        for (const [, target, prefix] of turn) await load(target, 10, paths(prefix).slice(0, 50)) // warm-up
        for (const [name, target, prefix] of turn) {
          record(`${route} ${name} c100`, await load(target, 100, paths(prefix)))
        }
        for (const [name, target, prefix] of turn) {
          record(`${route} ${name} c1`, await sequential(target.url, paths(prefix)))
        }
      }
      stop(proxy)
      stop(gateway)
    }
    console.log(
      `\ncore: throughput (req/s) and latency (ms), medians of ${ROUNDS} rounds of ${SECONDS} s` +
        (CONTROL ? ' (control: "gateway" is a second bare proxy)' : '') +
        (TRACING ? ` (tracing on: spans exported to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT})` : ''),
    )
    console.table(
      Object.fromEntries(
        Object.entries(rounds).map(([k, rs]) => [
          k,
          {
            rps: Math.round(median(rs.map((r) => r.rps))),
            p50: median(rs.map((r) => r.p50)),
            p99: median(rs.map((r) => r.p99)),
            errors: sum(rs.map((r) => r.errors)),
            non2xx: sum(rs.map((r) => r.non2xx)),
            'cpu µs/req':
              rs[0]?.cpuPerRequest === undefined
                ? ''
                : Math.round(median(rs.map((r) => r.cpuPerRequest ?? 0))),
          },
        ]),
      ),
    )
    for (const route of ['quote', 'order read']) {
      const per = (setup: string, by: (r: Result) => number) => rounds[`${route} ${setup}`]!.map(by)
      /** The rounds' own ratios of a to b (or differences), listed, and their median. */
      const paired = (a: number[], b: number[], op: (x: number, y: number) => number) => {
        const values = a.map((x, i) => op(x, b[i]!))
        return `${median(values).toFixed(2)} (rounds: ${values.map((v) => v.toFixed(2)).join(', ')})`
      }
      const rps = (setup: string) => per(setup, (r) => r.rps)
      const p50 = (setup: string) => per(setup, (r) => r.p50)
      const cpu = (setup: string) => per(setup, (r) => r.cpuPerRequest ?? Number.NaN)
      const ratio = (x: number, y: number) => x / y
      console.log(
        `${route}: gateway/bare-proxy throughput at 100 connections = ${paired(rps('gateway c100'), rps('bare proxy c100'), ratio)}x (target >= 0.8); ` +
          `bare-proxy/direct = ${paired(rps('bare proxy c100'), rps('direct c100'), ratio)}x; ` +
          `added median latency over direct at 1 connection = ${paired(p50('gateway c1'), p50('direct c1'), (x, y) => x - y)} ms (target <= 0.3); ` +
          `CPU per request, gateway/bare-proxy = ${paired(cpu('gateway c100'), cpu('bare proxy c100'), ratio)}x`,
      )
    }
  } finally {
    for (const target of running) target.stop()
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
