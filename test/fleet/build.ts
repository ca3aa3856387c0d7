// The production build the fleet runs: `npm run build` over a copy of what the Dockerfile's build stage
// copies, in the system's temporary folder. Compiling takes most of a minute on two cores, so the fleet
// files share one build per content: the folder is named by a hash of the sources and the lockfile,
// built once under a lock folder, and reused while nothing changed.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { eventually } from '../helpers/eventually.js'

const run = promisify(execFile)
const ROOT = process.cwd()
const CLIENT = 'packages/client'
const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src']
const CLIENT_SOURCES = ['package.json', 'tsconfig.json', 'src']
const DONE = '.built'

async function files(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path]
  const names = (await readdir(path)).sort()
  return (await Promise.all(names.map((n) => files(join(path, n))))).flat()
}

/** Changes with any file the build reads, and with the checkout (its node_modules are linked). */
async function contentHash(): Promise<string> {
  const hash = createHash('sha256').update(ROOT)
  const paths = [...SOURCES, ...CLIENT_SOURCES.map((f) => join(CLIENT, f))]
  for (const path of paths) {
    for (const file of await files(join(ROOT, path))) {
      hash.update(file).update(await readFile(file))
    }
  }
  return hash.digest('hex').slice(0, 16)
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

async function build(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir)
  for (const file of SOURCES) await cp(join(ROOT, file), join(dir, file), { recursive: true })
  for (const file of CLIENT_SOURCES)
    await cp(join(ROOT, CLIENT, file), join(dir, CLIENT, file), { recursive: true })
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  await run('npm', ['run', 'build'], { cwd: dir, maxBuffer: 16 << 20 })
  await writeFile(join(dir, DONE), new Date().toISOString())
}

/** A lock folder older than any build is left over from a killed run. */
const STALE_LOCK_MS = 300_000

/** The folder holding `dist/server.js`, built now or by an earlier fleet file. */
export async function productionBuild(): Promise<string> {
  const dir = join(tmpdir(), `swap-gateway-fleet-${await contentHash()}`)
  const lock = `${dir}.lock`
  const built = () => exists(join(dir, DONE))
  const stale = () =>
    stat(lock).then(
      (s) => Date.now() - s.mtimeMs > STALE_LOCK_MS,
      () => false,
    )
  for (const deadline = Date.now() + 600_000; ;) {
    if (await built()) return dir
    const mine = await mkdir(lock).then(
      () => true,
      () => false,
    )
    if (mine) {
      try {
        if (!(await built())) await build(dir)
        return dir
      } finally {
        await rm(lock, { recursive: true, force: true })
      }
    }
    // Another file builds it, in its own process: wait until it is built or the lock is let go (that
    // build failed: try again) or stale.
    await eventually(
      `the fleet build at ${dir}`,
      async () => (await built()) || !(await exists(lock)) || (await stale()),
      Math.max(0, deadline - Date.now()),
    )
    if (await stale()) await rm(lock, { recursive: true, force: true })
  }
}
