// Instructions per request, counted by valgrind's callgrind: unlike CPU time, a count does not move
// with the machine's load. Each target runs under callgrind, uninstrumented through a warm-up; then
// its counters are zeroed, a fixed number of requests is sent, and the counters are dumped and divided
// by that number. Printed twice: the total, and the part outside V8's collector and compilers, which
// run in whichever window they fall in (a collection or a TurboFan compile in the counted window moved
// one bare server's total from 244k to 434k per 304 between two runs of the same code).
//   npx tsc -p tsconfig.bench.json && node .bench/test/bench/callgrind.js [catalog-304] [catalog-br]
//   [catalog-gzip] [order-read]
// Sizes: CG_WARMUP (20000), CG_REQUESTS (3000), CG_CONNECTIONS (10; 2 for the order read, whose
// gateway otherwise answers 408 while valgrind translates new code). Needs valgrind.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Pool } from 'undici'
import { saveCatalogFiles } from './catalog.js'
import { scriptArgs } from './script.js'
import { createOrders } from './setup.js'
import { startTarget } from './spawn.js'

const WARMUP = Number(process.env.CG_WARMUP ?? 20_000)
const REQUESTS = Number(process.env.CG_REQUESTS ?? 3000)
const CONNECTIONS = Number(process.env.CG_CONNECTIONS ?? 0)
const connectionsFor = (route: 'catalog' | 'order-read') => CONNECTIONS || (route === 'catalog' ? 10 : 2)

interface Counted {
  url: string
  child: ChildProcess
  out: string
}

/** Starts `script args` under callgrind, instrumented from the end of its first warm-up. */
async function underCallgrind(dir: string, name: string, script: string, args: string[]): Promise<Counted> {
  const out = join(dir, `${name}.callgrind`)
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      // Uninstrumented until the warm-up is over: fully instrumented, start-up outlasts Fastify's
      // plugin timeout.
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      process.execPath,
      ...scriptArgs(script),
      ...args,
    ],
    { stdio: ['ignore', 'pipe', openSync(join(dir, `${name}.log`), 'w'), 'ipc'] },
  )
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)))
  })
  return { url: (JSON.parse(line) as { url: string }).url, child, out }
}

async function load(
  url: string,
  paths: string[],
  headers: Record<string, string>,
  count: number,
  connections: number,
) {
  const { origin } = new URL(url)
  const pool = new Pool(origin, { connections, pipelining: 1 })
  let sent = 0
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (sent < count) {
          const path = paths[sent++ % paths.length]!
          const res = await pool.request({ method: 'GET', path, headers })
          await res.body.dump({ limit: Number.POSITIVE_INFINITY })
          if (res.statusCode >= 400) throw new Error(`${path}: ${res.statusCode}`)
        }
      }),
    )
  } finally {
    await pool.close()
  }
}

/** Instructions per request over REQUESTS requests after WARMUP. */
async function count(target: Counted, paths: string[], headers: Record<string, string>, connections: number) {
  await load(target.url, paths, headers, WARMUP, connections)
  execFileSync('callgrind_control', ['--instr=on', String(target.child.pid)], { stdio: 'ignore' })
  await load(target.url, paths, headers, REQUESTS / 10, connections)
  execFileSync('callgrind_control', ['--zero', String(target.child.pid)], { stdio: 'ignore' })
  await load(target.url, paths, headers, REQUESTS, connections)
  execFileSync('callgrind_control', ['--dump', String(target.child.pid)], { stdio: 'ignore' })
  // Dumps are numbered files beside the output file; the newest holds the measured window.
  const dumps = execFileSync('sh', ['-c', `ls -t ${target.out}.[0-9]* | head -1`], {
    encoding: 'utf8',
  }).trim()
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(dumps, 'utf8'))
  return { total: Number(totals?.[1]) / REQUESTS, ownWork: ownWorkOf(dumps) / REQUESTS }
}

/** V8's own work, which lands in whichever window it happens to run in: collections and compiles. */
const COLLECTOR =
  /Heap|MarkCompact|Scaveng|Sweep|Marking|Evacuat|Compactor|GCTracer|MemoryAllocator|MinorMC|RememberedSet|SlotSet|MemoryChunk|IterateObjectCache/
const COMPILERS =
  /compiler::|Turbofan|[Mm]aglev|Compiler|Parser|Bytecode|Deoptimiz|Assembler|InstructionSelector|RegisterAllocator|Zone::/

/** A dump's instructions outside V8's collector and compilers (callgrind_annotate's self cost per function). */
function ownWorkOf(dump: string): number {
  const text = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', dump], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  let own = 0
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line)
    if (!m || m[2]!.includes('PROGRAM TOTALS') || COLLECTOR.test(m[2]!) || COMPILERS.test(m[2]!)) continue
    own += Number(m[1]!.replaceAll(',', ''))
  }
  return own
}

const kilo = (n: number) => `${Math.round(n / 1000)}k`
const compared = (name: string, g: Counts, b: Counts, baseline: string) =>
  `${name}: gateway ${kilo(g.total)} instructions per request, ${baseline} ${kilo(b.total)} (${(g.total / b.total).toFixed(2)}x); ` +
  `outside V8's collector and compilers ${kilo(g.ownWork)} against ${kilo(b.ownWork)} (${(g.ownWork / b.ownWork).toFixed(2)}x)`
type Counts = Awaited<ReturnType<typeof count>>

async function catalog(dir: string, sandbox: string, scenarios: string[]) {
  const gateway = await underCallgrind(dir, 'gateway', './catalog-target.ts', ['gateway', sandbox])
  const path = '/api/v1/tokens'
  const { br } = await saveCatalogFiles(dir, `${gateway.url}${path}`)
  const bare = await underCallgrind(dir, 'bare', './catalog-target.ts', ['bare', dir])
  const cases: Record<string, Record<string, string>> = {
    'catalog-304': { 'accept-encoding': 'br', 'if-none-match': br.etag },
    'catalog-br': { 'accept-encoding': 'br' },
    'catalog-gzip': { 'accept-encoding': 'gzip' },
  }
  try {
    for (const name of scenarios) {
      const headers = cases[name]!
      const g = await count(gateway, [path], headers, connectionsFor('catalog'))
      const b = await count(bare, ['/'], headers, connectionsFor('catalog'))
      console.log(compared(name, g, b, 'bare node:http'))
    }
  } finally {
    gateway.child.kill('SIGKILL')
    bare.child.kill('SIGKILL')
  }
}

async function orderRead(dir: string, sandbox: string) {
  const seeder = await startTarget(['gateway', sandbox])
  const tokens = (await (await fetch(`${sandbox}/v1/tokens`)).json()) as Parameters<typeof createOrders>[1]
  const uuids = await createOrders(seeder.url, tokens, 100)
  seeder.stop()
  const paths = uuids.map((u) => `/api/v1/orders/${u}`)
  const gateway = await underCallgrind(dir, 'read-gateway', './servers.ts', ['gateway', sandbox])
  const proxy = await underCallgrind(dir, 'read-proxy', './servers.ts', ['proxy', sandbox])
  try {
    const g = await count(gateway, paths, {}, connectionsFor('order-read'))
    const b = await count(proxy, paths, {}, connectionsFor('order-read'))
    console.log(compared('order-read', g, b, 'bare proxy'))
  } finally {
    gateway.child.kill('SIGKILL')
    proxy.child.kill('SIGKILL')
  }
}

const asked = process.argv.slice(2)
const scenarios = asked.length > 0 ? asked : ['catalog-304', 'catalog-br', 'catalog-gzip', 'order-read']
const dir = mkdtempSync(join(tmpdir(), 'callgrind-bench-'))
const sandbox = await startTarget(['sandbox'])
try {
  const catalogScenarios = scenarios.filter((s) => s.startsWith('catalog-'))
  if (catalogScenarios.length > 0) await catalog(dir, sandbox.url, catalogScenarios)
  if (scenarios.includes('order-read')) await orderRead(dir, sandbox.url)
} finally {
  sandbox.stop()
}
console.log(`(callgrind files in ${dir}; ${WARMUP} warm-up and ${REQUESTS} counted requests)`)
