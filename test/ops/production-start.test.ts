// What the container runs, without a container: the Dockerfile's stages on this machine. `npm run build`
// over a copy of what the build stage copies; the lockfile's production install (`npm ci --omit=dev`,
// from npm's cache when it has the packages) beside the build output; the server started by `node`
// itself from there. Then the Dockerfile read against that build.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import t from 'tap'
import { TEST_SESSION_SECRET, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { startSandbox } from '../helpers/sandbox.js'

const run = promisify(execFile)
const ROOT = process.cwd()
const CLIENT = 'packages/client'

// Compiling the whole project and installing its production dependencies take a while on two cores.
t.setTimeout(600_000)

/** What production never runs: compilers, bundlers, test runners, linters, the sandbox's packages. */
const DEVELOPMENT_ONLY = [
  'typescript',
  'esbuild',
  'tsx',
  'tap',
  'eslint',
  'prettier',
  '@fastify/http-proxy',
  '@fastify/reply-from',
  'viem',
  '@scure/base',
  'playwright-core',
]

/** Every package under a node_modules folder, nested ones included: name → count of copies. */
async function installed(dir: string, found = new Map<string, number>()): Promise<Map<string, number>> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const names = entry.name.startsWith('@')
      ? (await readdir(join(dir, entry.name))).map((n) => `${entry.name}/${n}`)
      : [entry.name]
    for (const name of names) {
      found.set(name, (found.get(name) ?? 0) + 1)
      await installed(join(dir, name, 'node_modules'), found)
    }
  }
  return found
}

async function sizeOf(path: string): Promise<number> {
  const info = await stat(path)
  if (!info.isDirectory()) return info.size
  let total = 0
  for (const name of await readdir(path)) total += await sizeOf(join(path, name))
  return total
}

function logLines(child: ChildProcess) {
  const lines: Array<Record<string, unknown>> = []
  const waiters = new Set<() => void>()
  createInterface({ input: child.stdout! }).on('line', (text) => {
    try {
      lines.push(JSON.parse(text) as Record<string, unknown>)
    } catch {
      lines.push({ raw: text })
    }
    for (const w of waiters) w()
  })
  const waitFor = (pred: (l: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = lines.find(pred)
        if (found) {
          waiters.delete(check)
          resolve(found)
        } else if (child.exitCode !== null)
          reject(new Error(`exited ${child.exitCode}: ${JSON.stringify(lines)}`))
      }
      waiters.add(check)
      child.once('exit', check)
      check()
    })
  return { lines, waitFor }
}

t.test(
  'the built server starts with production dependencies only, serves, and stops on SIGTERM',
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-prod-'))
    t.teardown(() => rm(dir, { recursive: true, force: true }))
    const [build, app] = [join(dir, 'build'), join(dir, 'app')]

    // The build stage: the lockfile, the TypeScript settings and src/, with the full install.
    await mkdir(build)
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src'])
      await cp(join(ROOT, file), join(build, file), { recursive: true })
    for (const file of ['package.json', 'tsconfig.json', 'src'])
      await cp(join(ROOT, CLIENT, file), join(build, CLIENT, file), { recursive: true })
    await symlink(join(ROOT, 'node_modules'), join(build, 'node_modules'))
    await run('npm', ['run', 'build'], { cwd: build, maxBuffer: 16 << 20 })

    // The runtime stage: package.json, the production install, the build output.
    await mkdir(app)
    for (const file of ['package.json', 'package-lock.json', `${CLIENT}/package.json`])
      await cp(join(ROOT, file), join(app, file))
    await run(
      'npm',
      ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      {
        cwd: app,
        maxBuffer: 16 << 20,
      },
    )
    const pkg = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as {
      main: string
      dependencies: Record<string, string>
    }
    const packages = await installed(join(app, 'node_modules'))
    for (const name of Object.keys(pkg.dependencies)) t.ok(packages.has(name), `${name} is installed`)
    for (const name of DEVELOPMENT_ONLY) t.notOk(packages.has(name), `${name} is left out`)
    t.notOk(
      [...packages.keys()].some((name) => name.startsWith('@esbuild/')),
      "no bundler's binary",
    )
    const megabytes = (await sizeOf(join(app, 'node_modules'))) / 1e6
    t.comment(`the production install: ${packages.size} packages, ${megabytes.toFixed(1)} MB`)
    await cp(join(build, 'dist'), join(app, 'dist'), { recursive: true })
    // The client workspace (node_modules links to it, for swap-gateway/client), as the image holds it.
    await cp(join(build, CLIENT, 'dist'), join(app, CLIENT, 'dist'), { recursive: true })

    const built = await readdir(join(app, 'dist'), { recursive: true })
    t.notOk(
      built.some((file) => file.startsWith('sandbox')),
      'no sandbox code in the build',
    )
    t.ok(built.includes(join('demo', 'assets', 'manifest.json')), "the demo's files are built")
    const noUpstream = await run(process.execPath, [pkg.main], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', PORT: '0', METRICS_PORT: '0' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    )
    t.not(noUpstream.code, 0, 'without UPSTREAM_URL the build refuses to start')
    t.match(noUpstream.stderr, /UPSTREAM_URL is not set and this build has no sandbox/, 'and says why')

    const sandbox = await startSandbox(t, { tenantKey: TEST_TENANT_KEY })
    const productionEnv = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: 'https://app.example',
      UPSTREAM_URL: sandbox.url,
      TENANT_API_KEY: TEST_TENANT_KEY,
      SESSION_SECRET: TEST_SESSION_SECRET,
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      DEMO: 'on',
    }
    const child = spawn(process.execPath, [pkg.main], {
      cwd: app,
      env: productionEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr?.on('data', (d) => {
      stderr += d
    })
    t.teardown(() => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    const { lines, waitFor } = logLines(child)
    const listening = await waitFor((l) => /Server listening at/.test(String(l.msg)))
    const base = /(http:\/\/\S+)/.exec(String(listening.msg))![1]!

    const health = await fetch(`${base}/healthz`)
    t.equal(health.status, 200)
    t.same(await health.json(), { status: 'ok' })
    t.equal((await fetch(`${base}/api/v1/tokens`)).status, 200, 'the catalog is served')
    t.equal((await fetch(`${base}/readyz`)).status, 200, 'ready once the catalog is loaded')
    t.equal((await fetch(`${base}/api/docs`)).status, 200, 'docs render without dev dependencies')
    const demo = await (await fetch(`${base}/`)).text()
    const script = /src="(\/demo\/app\.[\w-]+\.js)"/.exec(demo)?.[1]
    t.ok(script, 'DEMO=on serves the demo page from the build')
    const served = await fetch(`${base}${script}`)
    t.equal(served.status, 200, "the demo's script is bundled from dist/")
    t.notMatch(await served.text(), /sourceMappingURL/, 'without a source map comment')
    const map = await fetch(`${base}${script}.map`)
    t.equal(map.status, 404, 'and its map is not served')
    t.match(map.headers.get('content-type'), /^application\/problem\+json/)
    t.same(
      (await readdir(join(app, 'dist', 'demo', 'assets'))).filter((f) => f.endsWith('.map')),
      [],
      'the build wrote no map',
    )

    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const [code] = await exited
    t.equal(code, 0, 'SIGTERM ends the process cleanly')
    t.ok(
      lines.some((l) => /shutting down/.test(String(l.msg))),
      'the shutdown is logged',
    )
    t.equal(stderr, '', 'nothing on stderr: no error, no deprecation warning')
    t.notMatch(JSON.stringify(lines), TEST_TENANT_KEY, 'the tenant key is not logged')

    // A build without the demo's files (tsc alone) refuses DEMO=on at start rather than fail a visit.
    await rm(join(app, 'dist', 'demo', 'assets'), { recursive: true })
    const noDemo = await run(process.execPath, [pkg.main], { cwd: app, env: productionEnv }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    )
    t.not(noDemo.code, 0, 'DEMO=on without the demo files: no start')
    t.match(noDemo.stderr, /this build has no demo files: build with `npm run build`/, 'and says why')
  },
)

t.test('the Dockerfile builds what the build produces and runs it as the test above does', async (t) => {
  const dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8')
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { main: string }
  const build = JSON.parse(await readFile(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
    compilerOptions: { outDir: string; rootDir: string }
  }
  const stages = dockerfile.split(/^FROM /m).slice(1)
  t.ok(stages.length >= 2, 'multi-stage')
  const version = Number(/ARG NODE_VERSION=(\d+)/.exec(dockerfile)?.[1])
  const engines = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).engines.node as string
  const tested = [...engines.matchAll(/\^(\d+)\./g)].map((m) => Number(m[1]))
  t.equal(version, Math.max(...tested), `the newest Node line the package is tested on (${engines})`)
  for (const stage of stages) t.match(stage, /^node:\$\{NODE_VERSION\}/, 'every stage on that Node')

  const [builder] = stages
  t.match(builder, /COPY package\.json package-lock\.json/)
  t.match(builder, /RUN npm ci/)
  t.match(builder, /COPY tsconfig\.json tsconfig\.build\.json/)
  t.match(
    builder,
    new RegExp(`COPY ${build.compilerOptions.rootDir} `),
    'copies the sources the build compiles',
  )
  t.match(builder, /RUN npm run build/)

  const runtime = stages.at(-1)!
  t.match(dockerfile, /npm ci --omit=dev/, 'production dependencies only')
  t.match(runtime, new RegExp(`COPY --from=\\w+ /app/${build.compilerOptions.outDir} `), 'the build output')
  t.notMatch(runtime, /COPY (src|test)/, 'no sources in the runtime image')
  t.match(runtime, /^USER node$/m, 'non-root')
  t.match(runtime, /^HEALTHCHECK .*\n?.*\/healthz/m, 'a health check')
  t.match(runtime, /^ENV NODE_ENV=production/m)
  t.equal(
    /^CMD (.*)$/m.exec(runtime)?.[1],
    JSON.stringify(['node', pkg.main]).replace(',', ', '),
    'started by node itself',
  )
  t.notMatch(runtime, /npm (start|run)/, 'not through npm')
})
