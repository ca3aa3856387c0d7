// The client as a frontend project gets it: `npm run build` output, imported by its package name
// `swap-gateway/client` from another directory, used against a gateway, and type-checked in a browser
// project (DOM types, no Node types); its JavaScript imports nothing but its own files.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { clientGateway } from './setup.js'

const run = promisify(execFile)
const ROOT = process.cwd()

// Compiling the whole project takes a while on two cores.
t.setTimeout(240_000)

const CONSUMER_SCRIPT = `
import { createGatewayClient, GatewayProblem } from 'swap-gateway/client'
const client = createGatewayClient({ baseUrl: process.argv[2] })
const chains = await client.listChains()
let code
try {
  await client.getOrder('7b0e8d3e-5f7c-4a5e-9d8b-2f3c4d5e6f70')
} catch (err) {
  code = err instanceof GatewayProblem ? err.code : String(err)
}
console.log(JSON.stringify({ chains: chains.length, code }))
`

const CONSUMER_TYPES = `
import { createGatewayClient, GatewayProblem, type Order, type Quote } from 'swap-gateway/client'

const client = createGatewayClient({ baseUrl: 'https://app.example' })
export const quote: Promise<Quote> = client.getQuote({
  depositTokenId: 1,
  settleTokenId: 2,
  amount: 100,
  amountIsDeposit: true,
})
export async function statusOf(uuid: string): Promise<Order['status']> {
  return (await client.getOrder(uuid)).status
}
export function codeOf(err: unknown): string | undefined {
  if (!(err instanceof GatewayProblem)) return undefined
  // @ts-expect-error a member the problem document does not have
  void err.cod
  return err.side ?? err.code
}
// @ts-expect-error a quote needs its pair
void client.getQuote({ amount: 1, amountIsDeposit: true })
// @ts-expect-error the create body is typed
void client.createOrder({ depositTokenId: '1' })
`

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  },
  files: ['consumer.ts'],
}

/** Every module specifier a built file imports or re-exports. */
const specifiersOf = (source: string) =>
  [
    ...source.matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2]!)

t.test('swap-gateway/client, built and imported by name, works against a gateway and is typed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-client-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const pkgDir = join(dir, 'swap-gateway')
  const consumer = join(dir, 'consumer')
  await run('npm', ['run', 'build', '--', '--outDir', join(pkgDir, 'dist')], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
  })
  await writeFile(join(pkgDir, 'package.json'), await readFile(join(ROOT, 'package.json')))
  // The package's own dependencies (zod, for the declarations' types), as an install would provide.
  await symlink(join(ROOT, 'node_modules'), join(pkgDir, 'node_modules'), 'dir')
  await mkdir(join(consumer, 'node_modules'), { recursive: true })
  await symlink(pkgDir, join(consumer, 'node_modules', 'swap-gateway'), 'dir')

  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { types: string; import: string }>
  }
  const entry = pkg.exports['./client']!
  const built = await readdir(join(pkgDir, 'dist', 'client'))
  t.ok(built.includes('index.js') && built.includes('index.d.ts'), 'entry and types where exports says')
  t.equal(entry.import, './dist/client/index.js')
  t.equal(entry.types, './dist/client/index.d.ts')

  const index = specifiersOf(await readFile(join(pkgDir, 'dist', 'client', 'index.js'), 'utf8'))
  t.ok(index.includes('./gateway-client.js'), 'the entry re-exports the client (the scan reads imports)')
  for (const file of built.filter((f) => f.endsWith('.js'))) {
    const specifiers = specifiersOf(await readFile(join(pkgDir, 'dist', 'client', file), 'utf8'))
    const foreign = specifiers.filter((s) => !/^\.\/[\w-]+\.js$/.test(s))
    t.same(foreign, [], `${file} imports only files of dist/client (no node:, no zod)`)
  }

  const gw = await clientGateway(t)
  await writeFile(join(consumer, 'consumer.mjs'), CONSUMER_SCRIPT)
  const { stdout } = await run(process.execPath, ['consumer.mjs', gw.url], { cwd: consumer })
  t.same(
    JSON.parse(stdout),
    {
      chains: ((await (await fetch(`${gw.url}/api/v1/chains`)).json()) as unknown[]).length,
      code: 'ORDER_NOT_FOUND',
    },
    'listChains resolves and a problem rejects as GatewayProblem',
  )

  await writeFile(join(consumer, 'consumer.ts'), CONSUMER_TYPES)
  await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG))
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
  const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer }).then(
    () => '',
    (err: { stdout?: string }) => err.stdout ?? String(err),
  )
  t.equal(checked, '', 'a browser project type-checks against the published types')
})
