// The gateway's sources point down only: a module imports from its own layer or the ones below it,
// never from above (docs/development.md, "Layout"). The sandbox (a stand-in for the upstream) and the
// demo page's browser code stand apart: the sandbox reaches the gateway only for the type of its
// development entry.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import t from 'tap'

const SRC = resolve(import.meta.dirname, '../../src')

/** Bottom first. A name ending in .ts is a file at the top of src/; any other is a folder. */
const LAYERS: string[][] = [
  ['errors.ts', 'problems.ts', 'clock.ts', 'version.ts'],
  ['observability', 'tracing'],
  ['redis'],
  ['edge'],
  ['upstream', 'deliveries'],
  ['orders'],
  ['catalog', 'auth'],
  ['stream'],
  ['live-quote'],
  ['watch'],
  ['webhooks', 'push', 'wallet-stream'],
  ['ops', 'docs', 'demo'],
  ['dev'],
  ['config.ts', 'config', 'app.ts'],
  ['server.ts', 'cli'],
]
const APART = ['sandbox', 'demo/page']

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : []
  })

const apart = (file: string) => APART.some((a) => file === a || file.startsWith(`${a}/`))

function layerOf(file: string): number {
  const top = file.includes('/') ? file.split('/')[0]! : file
  const index = LAYERS.findIndex((layer) => layer.includes(top))
  if (index < 0) throw new Error(`src/${file} is in no layer: add its folder to LAYERS`)
  return index
}

/** Relative imports, static and dynamic, as files under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8')
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!)
  return specs.map((spec) => relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.js$/, '.ts'))
}

const files = sources(SRC)

t.test('every module of the gateway imports only from its own layer or below', async (t) => {
  const upward: string[] = []
  let edges = 0
  for (const file of files.filter((f) => !apart(f))) {
    for (const target of importsOf(file)) {
      edges++
      if (apart(target)) upward.push(`src/${file} → src/${target} (set apart)`)
      else if (layerOf(target) > layerOf(file)) upward.push(`src/${file} → src/${target}`)
    }
  }
  t.ok(edges > 300, `${edges} imports read`)
  t.same(upward, [], 'no import points up a layer')
})

t.test('the sandbox reaches the gateway only for the type of its development entry', async (t) => {
  const outside = files
    .filter((f) => f.startsWith('sandbox/'))
    .flatMap((file) => importsOf(file).map((target) => ({ file, target })))
    .filter(({ target }) => !target.startsWith('sandbox/'))
    .map(({ file, target }) => `src/${file} → src/${target}`)
  t.same(outside, ['src/sandbox/start.ts → src/dev/upstream.ts'])
})

t.test('the check sees an upward import', async (t) => {
  t.ok(layerOf('edge/plugin.ts') < layerOf('auth/plugin.ts'), 'edge is below auth')
  t.ok(layerOf('observability/metrics.ts') < layerOf('catalog/metrics.ts'), 'observability is below catalog')
  t.throws(() => layerOf('nowhere/file.ts'), /in no layer/)
})
