// The gateway's sources point down only: a module imports from its own layer or the ones below it,
// never from above (docs/development.md, "Layout"). The run-time wiring follows the same list: a plugin
// declares (fastify-plugin's `dependencies`) only plugins of its own layer or below, every decorator
// it reads at run time comes from a plugin it declares, and buildApp registers the plugins in the
// list's order. The sandbox (a stand-in for the upstream) and the demo page's browser code stand
// apart: the sandbox reaches the gateway only for the type of its development entry.
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
  ['contracts'],
  ['catalog', 'auth'],
  ['orders'],
  ['sse'],
  ['status-stream', 'live-quote'],
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

/** A module's text with its comments blanked out, so that prose naming code is not read as code. */
function codeOf(file: string): string {
  return readFileSync(join(SRC, file), 'utf8').replace(
    /('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (match, string: string | undefined) => string ?? match.replace(/[^\n]/g, ' '),
  )
}

const IMPORT =
  /\b(?:import|export)\s+(type\s+)?([\w$*\s{},]*?)\s*from\s*'(\.{1,2}\/[^']+)'|\bimport\s*\(?\s*'(\.{1,2}\/[^']+)'/g

/** Relative imports, static and dynamic, as files under src/; `runtime` false when only types are named. */
function importsOf(file: string): Array<{ target: string; runtime: boolean }> {
  return [...codeOf(file).matchAll(IMPORT)].map((m) => {
    const names = (m[2] ?? '')
      .replace(/[{}]/g, '')
      .split(',')
      .map((name) => name.trim())
    const typesOnly =
      m[1] !== undefined || (m[2]?.includes('{') === true && names.every((n) => /^type\s|^$/.test(n)))
    const spec = m[3] ?? m[4]!
    return {
      target: relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.js$/, '.ts'),
      runtime: !typesOnly,
    }
  })
}

const files = sources(SRC)

t.test('every module of the gateway imports only from its own layer or below', async (t) => {
  const upward: string[] = []
  let edges = 0
  for (const file of files.filter((f) => !apart(f))) {
    for (const { target } of importsOf(file)) {
      edges++
      if (apart(target)) upward.push(`src/${file} → src/${target} (set apart)`)
      else if (layerOf(target) > layerOf(file)) upward.push(`src/${file} → src/${target}`)
    }
  }
  t.ok(edges > 300, `${edges} imports read`)
  t.same(upward, [], 'no import points up a layer')
})

t.test(
  'the sandbox reaches the gateway only for the clock and the type of its development entry',
  async (t) => {
    // The clock is shared so that one fake clock drives the gateway and the sandbox in a test; it
    // imports nothing, so the sandbox still stands apart from the gateway's code.
    t.same(importsOf('clock.ts'), [], 'the clock imports nothing')
    const outside = files
      .filter((f) => f.startsWith('sandbox/'))
      .flatMap((file) => importsOf(file).map(({ target }) => ({ file, target })))
      .filter(({ target }) => !target.startsWith('sandbox/') && target !== 'clock.ts')
      .map(({ file, target }) => `src/${file} → src/${target}`)
    t.same(outside, ['src/sandbox/start.ts → src/dev/upstream.ts'])
  },
)

t.test('the check sees an upward import', async (t) => {
  t.ok(layerOf('edge/plugin.ts') < layerOf('auth/plugin.ts'), 'edge is below auth')
  t.ok(layerOf('observability/metrics.ts') < layerOf('catalog/metrics.ts'), 'observability is below catalog')
  t.throws(() => layerOf('nowhere/file.ts'), /in no layer/)
})

/** Modules that run something when imported (commands, the process entry, the demo's build). */
const ENTRY_POINTS = /^(cli\/|server\.ts$|demo\/build\.ts$)/

/** Every capability plugin of src/: its name, the file exporting it, the plugins it declares it needs. */
async function pluginsOfSrc(): Promise<Array<{ name: string; file: string; dependencies: string[] }>> {
  const found = []
  for (const file of files.filter((f) => !apart(f) && !ENTRY_POINTS.test(f))) {
    const module = (await import(join(SRC, file))) as Record<string, unknown>
    for (const value of Object.values(module)) {
      const meta = (value as Record<symbol, { name?: string; dependencies?: string[] }> | undefined)?.[
        Symbol.for('plugin-meta')
      ]
      if (typeof value === 'function' && meta?.name) {
        found.push({ name: meta.name, file, dependencies: meta.dependencies ?? [] })
      }
    }
  }
  return found
}

t.test('every plugin needs at run time only plugins of its own layer or below', async (t) => {
  const plugins = await pluginsOfSrc()
  const fileOf = new Map(plugins.map((p) => [p.name, p.file]))
  const upward: string[] = []
  let edges = 0
  for (const plugin of plugins) {
    for (const dependency of plugin.dependencies) {
      const target = fileOf.get(dependency)
      if (target === undefined) continue // a library's plugin (@fastify/cookie...)
      edges++
      if (layerOf(target) > layerOf(plugin.file))
        upward.push(`${plugin.name} (src/${plugin.file}) needs ${dependency} (src/${target})`)
    }
  }
  t.ok(plugins.length > 20 && edges > 40, `${plugins.length} plugins, ${edges} declared dependencies read`)
  t.same(upward, [], 'no plugin needs one from a higher layer')
})

type Plugin = Awaited<ReturnType<typeof pluginsOfSrc>>[number]

/** What buildApp decorates itself, before any plugin. */
const BUILD_APP = 'buildApp'

/** Each decorator of the instance (`app.X`) and of requests (`request.X`): the plugin that adds it. */
function decoratorOwners(plugins: Plugin[]): { instance: Map<string, string>; request: Map<string, string> } {
  const owners = { instance: new Map<string, string>(), request: new Map<string, string>() }
  for (const file of files.filter((f) => !apart(f))) {
    for (const m of codeOf(file).matchAll(/\.decorate(Request)?\(\s*'(\w+)'/g)) {
      const defined = plugins.filter((p) => p.file === file).map((p) => p.name)
      if (file !== 'app.ts' && defined.length !== 1)
        throw new Error(`src/${file} decorates ${m[2]} but defines ${defined.length} plugins: whose is it?`)
      ;(m[1] ? owners.request : owners.instance).set(m[2]!, defined[0] ?? BUILD_APP)
    }
  }
  return owners
}

/**
 * The decorators a module reads: `app.X` (or `fastify.X`, `instance.X`), `const { X } = app`,
 * `request.server.X` and `request.X`, where X is a decorator.
 */
function decoratorsReadIn(file: string, owners: ReturnType<typeof decoratorOwners>): string[] {
  const code = codeOf(file)
  const instance = [
    ...[...code.matchAll(/\b(?:app|fastify|instance|(?:request|req)\.server)\.(\w+)/g)].map((m) => m[1]!),
    ...[...code.matchAll(/\bconst\s*\{([^}]*)\}\s*=\s*(?:app|fastify|instance)(?![\w$.])/g)].flatMap((m) =>
      m[1]!.split(',').map((member) => member.split(':')[0]!.trim()),
    ),
  ].filter((name) => owners.instance.has(name))
  const request = [...code.matchAll(/\b(?:request|req)\.(\w+)/g)]
    .map((m) => m[1]!)
    .filter((name) => owners.request.has(name))
    .map((name) => `request.${name}`)
  return [...new Set([...instance.map((name) => `app.${name}`), ...request])]
}

/**
 * What a plugin reads at run time: what its own module reads, and what every module it reaches by
 * run-time imports reads, up to (not into) modules that define plugins of their own, whose reads are
 * theirs. A module holding several plugins charges its reads to each.
 */
function runTimeReads(plugin: Plugin, plugins: Plugin[], owners: ReturnType<typeof decoratorOwners>) {
  const pluginFiles = new Set(plugins.map((p) => p.file))
  const seen = new Set([plugin.file])
  const queue = [plugin.file]
  const reads: Array<{ decorator: string; file: string }> = []
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const decorator of decoratorsReadIn(file, owners)) reads.push({ decorator, file })
    for (const { target, runtime } of importsOf(file)) {
      if (!runtime || seen.has(target) || pluginFiles.has(target) || apart(target)) continue
      seen.add(target)
      queue.push(target)
    }
  }
  return reads
}

/** Each decorator read by a plugin that neither adds it nor declares the plugin (or buildApp) that does. */
function undeclaredReads(plugins: Plugin[]): { undeclared: string[]; reads: number } {
  const owners = decoratorOwners(plugins)
  const undeclared: string[] = []
  let reads = 0
  for (const plugin of plugins) {
    for (const { decorator, file } of runTimeReads(plugin, plugins, owners)) {
      reads++
      const [kind, name] = decorator.split('.') as ['app' | 'request', string]
      const owner = (kind === 'app' ? owners.instance : owners.request).get(name)!
      if (owner === BUILD_APP || owner === plugin.name || plugin.dependencies.includes(owner)) continue
      undeclared.push(
        `${plugin.name} reads ${decorator} (src/${file}), added by ${owner}, not in its dependencies`,
      )
    }
  }
  return { undeclared, reads }
}

t.test('every decorator a plugin reads at run time is added by a plugin it declares', async (t) => {
  const { undeclared, reads } = undeclaredReads(await pluginsOfSrc())
  t.ok(reads > 80, `${reads} decorator reads found`)
  t.same(undeclared, [], 'fastify-plugin `dependencies` name what each plugin uses, so the layers see it')
})

t.test('the check sees a decorator read whose plugin is not declared', async (t) => {
  const plugins = (await pluginsOfSrc()).map((p) =>
    p.name === 'status-stream' ? { ...p, dependencies: p.dependencies.filter((d) => d !== 'orders') } : p,
  )
  t.same(undeclaredReads(plugins).undeclared, [
    'status-stream reads app.orderReader (src/status-stream/plugin.ts), added by orders, not in its dependencies',
    'status-stream reads app.orderReader (src/status-stream/route.ts), added by orders, not in its dependencies',
  ])
})

/** What registers before its layer and why: it must see every route registered after it. */
const REGISTERED_EARLY: Record<string, string> = { openapiCollector: 'collects each route as it is added' }

t.test('buildApp registers the capabilities in the layers’ order, bottom first', async (t) => {
  const app = readFileSync(join(SRC, 'app.ts'), 'utf8')
  const fromOf = new Map(
    [...app.matchAll(/import \{([^}]+)\} from '\.\/([^']+)\.js'/g)].flatMap((m) =>
      m[1]!.split(',').map((name) => [name.replace(/^\s*type\s+/, '').trim(), `${m[2]}.ts`] as const),
    ),
  )
  const registered = [...app.matchAll(/app\.register\((\w+)/g)].map((m) => m[1]!)
  const order = registered.filter((name) => !(name in REGISTERED_EARLY) && fromOf.has(name))
  t.ok(order.length > 15, `${order.join(', ')}`)
  const outOfOrder = order.filter(
    (name, i) => i > 0 && layerOf(fromOf.get(name)!) < layerOf(fromOf.get(order[i - 1]!)!),
  )
  t.same(outOfOrder, [], 'each plugin is registered after the layers below it')
})
