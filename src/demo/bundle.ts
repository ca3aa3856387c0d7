// The demo page's script, bundled by esbuild from page/main (TypeScript under tsx, the compiled
// JavaScript in dist/) with the typed client it imports (the swap-gateway-client workspace: its
// sources under tsx, its build from dist/), into memory: no build step, no files on disk.
// Output names carry esbuild's content hash, so browsers may cache them for a year.
import { createHash } from 'node:crypto'
import { basename, extname } from 'node:path'
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
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

/** The client package's export condition naming its TypeScript sources (packages/client/package.json). */
const CLIENT_SOURCES = 'swap-gateway-source'

const contentHash = (body: Buffer) => createHash('sha256').update(body).digest('base64url').slice(0, 12)

export async function bundleDemo(): Promise<DemoBundle> {
  // Loaded only when the demo is served: production images without the demo never start esbuild.
  const esbuild = await import('esbuild')
  // This module runs as .ts under tsx and as .js from dist/; the page's entry sits beside it either way.
  const fromSources = extname(import.meta.url) === '.ts'
  const entry = fileURLToPath(new URL(`./page/main${extname(import.meta.url)}`, import.meta.url))
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: fromSources ? [CLIENT_SOURCES] : [],
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    outdir: '/demo',
    entryNames: 'app.[hash]',
    logLevel: 'silent',
  })
  const assets = new Map<string, Asset>()
  let script = ''
  for (const file of result.outputFiles) {
    const name = basename(file.path)
    assets.set(name, {
      body: Buffer.from(file.contents),
      type: TYPES[extname(name)] ?? 'application/octet-stream',
    })
    if (name.endsWith('.js')) script = name
  }
  const css = Buffer.from(DEMO_STYLES)
  const style = `styles.${contentHash(css)}.css`
  assets.set(style, { body: css, type: TYPES['.css']! })
  return { assets, script, style }
}
