// The demo page's script and styles. Run from the sources (`npm start`, the tests), the script is
// bundled by esbuild from page/main with the typed client it imports (the swap-gateway-client
// workspace's TypeScript sources), into memory, so an edit shows at the next start. Run from the build (`node dist/server.js`), the files `npm run build` wrote beside
// this module are served as they are: production needs no bundler (esbuild is a development dependency).
// Names carry a content hash, so browsers may cache them for a year. A source map (every source file
// and the paths of the machine that built it) is made only for development: never by the build, which
// is what production runs, nor from the sources in production.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEMO_STYLES } from './styles.js'

export interface Asset {
  body: Buffer
  type: string
}

export interface DemoBundle {
  /** Asset file name → contents, served under the demo's asset path. */
  assets: Map<string, Asset>
  script: string
  style: string
  /** The service worker's script, served from the origin's root (its scope). */
  worker: string
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}
const typeOf = (name: string) => TYPES[extname(name)] ?? 'application/octet-stream'

/** Where `npm run build` writes the files, relative to this module in the build. */
const BUILT = 'assets'
/** Names the script and the style sheet among the built files. */
const MANIFEST = 'manifest.json'

const fromSources = extname(import.meta.url) === '.ts'
const builtDir = fileURLToPath(new URL(BUILT, import.meta.url))

/** The client workspace's TypeScript sources: the demo is bundled from them, not from the client's build. */
const CLIENT_SOURCES = fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url))

const contentHash = (body: Buffer) => createHash('sha256').update(body).digest('base64url').slice(0, 12)

export interface BundleOptions {
  /** A linked source map beside the script (development only). */
  sourceMap: boolean
}

/** Bundles page/main and the service worker (TypeScript) with esbuild, which only the sources' side ever loads. */
export async function bundleDemo(opts: BundleOptions): Promise<DemoBundle> {
  const esbuild = await import('esbuild')
  const result = await esbuild.build({
    entryPoints: {
      app: fileURLToPath(new URL('./page/main.ts', import.meta.url)),
      sw: fileURLToPath(new URL('./page/service-worker.ts', import.meta.url)),
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    alias: { 'swap-gateway-client': CLIENT_SOURCES },
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: opts.sourceMap ? 'linked' : false,
    outdir: '/demo',
    entryNames: '[name].[hash]',
    logLevel: 'silent',
  })
  const assets = new Map<string, Asset>()
  let script = ''
  let worker = ''
  for (const file of result.outputFiles) {
    const name = basename(file.path)
    assets.set(name, { body: Buffer.from(file.contents), type: typeOf(name) })
    if (name.endsWith('.js')) {
      if (name.startsWith('sw.')) worker = name
      else script = name
    }
  }
  const css = Buffer.from(DEMO_STYLES)
  const style = `styles.${contentHash(css)}.css`
  assets.set(style, { body: css, type: typeOf(style) })
  return { assets, script, style, worker }
}

/** Writes a bundle where the build's demo module reads it (`<outDir>/demo/assets`). */
export async function writeDemo(bundle: DemoBundle, outDir: string): Promise<void> {
  const dir = join(outDir, 'demo', BUILT)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  for (const [name, asset] of bundle.assets) await writeFile(join(dir, name), asset.body)
  await writeFile(
    join(dir, MANIFEST),
    JSON.stringify({ script: bundle.script, style: bundle.style, worker: bundle.worker }),
  )
}

async function readDemo(): Promise<DemoBundle> {
  const { script, style, worker } = JSON.parse(await readFile(join(builtDir, MANIFEST), 'utf8')) as {
    script: string
    style: string
    worker: string
  }
  const assets = new Map<string, Asset>()
  for (const name of await readdir(builtDir)) {
    if (name !== MANIFEST)
      assets.set(name, { body: await readFile(join(builtDir, name)), type: typeOf(name) })
  }
  return { assets, script, style, worker }
}

/**
 * How this process gets the demo's files: undefined when it cannot (a build made without `npm run
 * build`'s demo step), so the gateway refuses to start with DEMO on rather than fail on the first visit.
 */
export function demoSource(opts: BundleOptions): (() => Promise<DemoBundle>) | undefined {
  if (fromSources) return () => bundleDemo(opts)
  return existsSync(join(builtDir, MANIFEST)) ? readDemo : undefined
}
