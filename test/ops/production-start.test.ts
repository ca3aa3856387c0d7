// What the container runs, without a container: `npm run build` output started by `node` itself from a
// directory holding only dist/, package.json and the production dependencies; and the Dockerfile read
// against that build.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import t from 'tap'
import { TEST_SESSION_SECRET, TEST_TENANT_KEY } from '../helpers/gateway.js'
import { startSandbox } from '../helpers/sandbox.js'

const run = promisify(execFile)
const ROOT = process.cwd()

// Compiling the whole project takes a while on two cores.
t.setTimeout(240_000)

/**
 * The top-level packages `npm ci --omit=dev` installs: the lockfile's entries not marked dev, less the
 * optional ones npm skipped on this platform (esbuild's binaries for other systems).
 */
async function productionPackages(): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }>
  }
  return Object.entries(lock.packages)
    .filter(
      ([path, entry]) =>
        /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) &&
        !entry.dev &&
        !entry.devOptional &&
        (!entry.optional || existsSync(join(ROOT, path))),
    )
    .map(([path]) => path.slice('node_modules/'.length))
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

    await run('npm', ['run', 'build', '--', '--outDir', join(dir, 'dist')], {
      cwd: ROOT,
      maxBuffer: 16 << 20,
    })
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      main: string
      dependencies: Record<string, string>
      devDependencies: Record<string, string>
    }
    await writeFile(join(dir, 'package.json'), JSON.stringify(pkg))
    const packages = await productionPackages()
    for (const name of Object.keys(pkg.dependencies))
      t.ok(packages.includes(name), `${name} is a production package`)
    for (const name of ['typescript', 'tap', 'tsx', 'eslint'])
      t.notOk(packages.includes(name), `${name} is left out`)
    await Promise.all(
      packages.map((name) =>
        cp(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), {
          recursive: true,
          verbatimSymlinks: true,
        }),
      ),
    )
    // The client workspace (node_modules links to it), which the demo bundles: as the image holds it.
    for (const file of ['package.json', 'dist'])
      await cp(join(ROOT, 'packages/client', file), join(dir, 'packages/client', file), { recursive: true })

    const built = await readdir(join(dir, 'dist'), { recursive: true })
    t.notOk(
      built.some((file) => file.startsWith('sandbox')),
      'no sandbox code in the build',
    )
    t.notOk(pkg.dependencies['@scure/base'], 'the sandbox-only dependency is not a production one')
    const noUpstream = await run(process.execPath, [pkg.main], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', PORT: '0', METRICS_PORT: '0' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    )
    t.not(noUpstream.code, 0, 'without UPSTREAM_URL the build refuses to start')
    t.match(noUpstream.stderr, /UPSTREAM_URL is not set and this build has no sandbox/, 'and says why')

    const sandbox = await startSandbox(t, { tenantKey: TEST_TENANT_KEY })
    const child = spawn(process.execPath, [pkg.main], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        UPSTREAM_URL: sandbox.url,
        TENANT_API_KEY: TEST_TENANT_KEY,
        SESSION_SECRET: TEST_SESSION_SECRET,
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_PORT: '0',
        DEMO: 'on',
      },
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
    t.equal((await fetch(`${base}${script}`)).status, 200, "the demo's script is bundled from dist/")

    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const [code] = await exited
    t.equal(code, 0, 'SIGTERM ends the process cleanly')
    t.ok(
      lines.some((l) => /shutting down/.test(String(l.msg))),
      'the shutdown is logged',
    )
    t.notMatch(stderr, /Error|Cannot find/, 'nothing on stderr')
    t.notMatch(JSON.stringify(lines), TEST_TENANT_KEY, 'the tenant key is not logged')
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
  t.ok(version >= 22 && version % 2 === 0, `a supported Node LTS (${version})`)
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
