// The client as a frontend team gets it: `npm pack` of the workspace, the tarball installed into an
// empty project (nothing else comes with it), type-checked there as a browser project (strict, DOM
// libraries only, no Node types, skipLibCheck off), and run against a gateway. A consumer that
// misspells an order's field does not compile.
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { UNCOVERED_CHILD } from '../helpers/process.js'
import { clientGateway } from './setup.js'

const run = promisify(execFile)
const ROOT = process.cwd()
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')

// Packing builds the package; compiling takes a while on two cores.
t.setTimeout(290_000)

const CONSUMER_SCRIPT = `
import { createGatewayClient, GatewayProblem } from 'swap-gateway-client'
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

const CONSUMER = `
import {
  createGatewayClient,
  GatewayProblem,
  isProblemOf,
  type Order,
  type ProblemCode,
  type Quote,
  type SessionView,
} from 'swap-gateway-client'

const client = createGatewayClient({
  baseUrl: 'https://app.example',
  sessionMode: 'token',
  sessionToken: localStorage.getItem('session') ?? undefined,
  onSessionToken: (token) => (token ? localStorage.setItem('session', token) : localStorage.removeItem('session')),
})
export const quote: Promise<Quote> = client.getQuote({
  depositTokenId: 1,
  settleTokenId: 2,
  amount: 100,
  amountIsDeposit: true,
})
export async function depositTo(uuid: string): Promise<string> {
  const order: Order = await client.getOrder(uuid)
  return \`\${order.walletAddress} \${order.depositToken.symbol} \${order.minimalAmount}\`
}
export function expiry(session: SessionView): string {
  if (session.signedIn) return session.expiresAt
  return session.expired ? \`sign again as \${session.address}\` : 'signed out'
}
export async function create(): Promise<string> {
  try {
    return (await client.createOrder({ depositTokenId: 1, settleTokenId: 2, receivingAddress: '0x0', intendedAmount: 1, intendedIsDeposit: true })).uuid
  } catch (err) {
    if (!isProblemOf(err, 'createOrder')) throw err
    switch (err.code) {
      case 'INVALID_ADDRESS':
        return \`address refused on \${err.network ?? '?'}\`
      case 'UNKNOWN_TOKEN':
        return \`\${err.side ?? '?'} token \${err.tokenId ?? '?'}\`
      default:
        return err.code
    }
  }
}
export function codeOf(err: unknown): string | undefined {
  if (!(err instanceof GatewayProblem)) return undefined
  // @ts-expect-error a member the problem document does not have
  void err.cod
  return err.side ?? err.code
}
// The README's headline: instanceof alone types \`code\` as every code the gateway answers, not any.
export function headline(err: unknown): string | undefined {
  if (!(err instanceof GatewayProblem)) return undefined
  // @ts-expect-error a code is text of the catalogue, with no such member
  err.code.nonsense.deeper()
  // @ts-expect-error no code of the gateway's or the client's is spelt so
  if (err.code === 'ORDER_NOT_FUOND') return 'never'
  const code: ProblemCode = err.code
  return code
}
export function neverFromCreate(err: unknown): boolean {
  // @ts-expect-error createOrder never answers TOKEN_NOT_FOUND
  return isProblemOf(err, 'createOrder') && err.code === 'TOKEN_NOT_FOUND'
}
// A browser's own registration fits the push methods; their rejections name their codes.
export async function notifyMe(uuid: string): Promise<string> {
  const registration: ServiceWorkerRegistration = await navigator.serviceWorker.ready
  try {
    const subscription = await client.subscribeToOrderPush(uuid, registration)
    await client.unsubscribeFromOrderPush(uuid, registration)
    return subscription.endpoint
  } catch (err) {
    if (!isProblemOf(err, 'subscribeToOrderPush')) throw err
    // @ts-expect-error subscribing never answers INVALID_ADDRESS
    if (err.code === 'INVALID_ADDRESS') return 'never'
    return err.code === 'PUSH_REFUSED' ? 'denied' : err.code
  }
}
// @ts-expect-error a quote needs its pair
void client.getQuote({ amount: 1, amountIsDeposit: true })
// @ts-expect-error the create body is typed
void client.createOrder({ depositTokenId: '1' })
`

const MISSPELT = `
import { createGatewayClient } from 'swap-gateway-client'
const client = createGatewayClient({ baseUrl: 'https://app.example' })
const order = await client.getOrder('7b0e8d3e-5f7c-4a5e-9d8b-2f3c4d5e6f70')
console.log(order.depositAddress)
`

/** Every file an `exports` map names, under any condition. */
const exportTargets = (exports: unknown): string[] =>
  typeof exports === 'string'
    ? [exports]
    : typeof exports === 'object' && exports !== null
      ? Object.values(exports).flatMap(exportTargets)
      : []

/** A browser project: strict, DOM libraries only, no Node types, every declaration checked. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
}

/** The same for a project resolving as Node does. */
const NODE_RESOLUTION = { module: 'NodeNext', moduleResolution: 'NodeNext' }

async function typeCheck(dir: string, file: string, resolution = {}): Promise<string> {
  const compilerOptions = { ...TSCONFIG.compilerOptions, ...resolution }
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [file] }))
  return run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir }).then(
    () => '',
    (err: { stdout?: string }) => err.stdout ?? String(err),
  )
}

t.test('swap-gateway-client: packed, installed alone into an empty project, typed and working', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-client-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const { stdout: packed } = await run(
    'npm',
    ['pack', '--workspace', 'swap-gateway-client', '--pack-destination', dir, '--json'],
    { cwd: ROOT, maxBuffer: 16 << 20 },
  )
  const [pack] = JSON.parse(packed) as Array<{
    filename: string
    size: number
    files: Array<{ path: string }>
  }>
  const files = pack!.files.map((f) => f.path).sort()
  t.comment(`${pack!.filename}: ${pack!.size} bytes, ${files.join(' ')}`)
  t.same(
    files.filter((f) => !/^dist\/[\w-]+\.(js|d\.ts)$/.test(f)),
    ['package.json', 'README.md'].sort(),
    'the tarball holds the build, its README and package.json',
  )
  const manifest = JSON.parse(await readFile(join(ROOT, 'packages/client/package.json'), 'utf8')) as Record<
    string,
    unknown
  >
  t.notOk(manifest.dependencies ?? manifest.peerDependencies, 'no runtime dependency')
  const targets = [manifest.types, ...exportTargets(manifest.exports)].map((target) =>
    String(target).replace(/^\.\//, ''),
  )
  t.same(
    targets.filter((target) => !files.includes(target)),
    [],
    `every file the manifest names is in the tarball (${targets.join(', ')})`,
  )

  const consumer = join(dir, 'consumer')
  await run('mkdir', ['-p', consumer])
  await writeFile(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  )
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, pack!.filename)], {
    cwd: consumer,
  })
  const installed = (await readdir(join(consumer, 'node_modules'))).filter((n) => !n.startsWith('.'))
  t.same(installed, ['swap-gateway-client'], 'the installed tree holds no other package')

  const built = join(consumer, 'node_modules', 'swap-gateway-client', 'dist')
  for (const file of (await readdir(built)).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
    const source = await readFile(join(built, file), 'utf8')
    const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!)
    t.same(
      specifiers.filter((s) => !/^\.\/[\w-]+\.js$/.test(s)),
      [],
      `${file} imports only the package's own files (no node:, no zod, no server module)`,
    )
  }

  await writeFile(join(consumer, 'consumer.ts'), CONSUMER)
  const checked = await typeCheck(consumer, 'consumer.ts')
  t.equal(checked, '', 'a browser project type-checks against the installed declarations')
  t.equal(await typeCheck(consumer, 'consumer.ts', NODE_RESOLUTION), '', 'and with NodeNext resolution')

  await writeFile(join(consumer, 'misspelt.ts'), MISSPELT)
  const misspelt = await typeCheck(consumer, 'misspelt.ts')
  t.comment(misspelt.trim())
  t.match(
    misspelt,
    /misspelt\.ts\(5,19\): error TS2339: Property 'depositAddress' does not exist on type 'Order'/,
    'a misspelt order field is a compile error',
  )

  const gw = await clientGateway(t)
  await writeFile(join(consumer, 'consumer.mjs'), CONSUMER_SCRIPT)
  const { stdout } = await run(process.execPath, ['consumer.mjs', gw.url], { cwd: consumer })
  t.same(
    JSON.parse(stdout),
    {
      chains: ((await (await fetch(`${gw.url}/api/v1/chains`)).json()) as unknown[]).length,
      code: 'ORDER_NOT_FOUND',
    },
    'from the tarball, listChains resolves and a problem rejects as GatewayProblem',
  )

  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { types: string; import: string }>
  }
  t.same(
    root.exports['./client'],
    { types: './packages/client/dist/index.d.ts', import: './packages/client/dist/index.js' },
    'the gateway package re-exports the same build as swap-gateway/client',
  )
  // In a child of its own: the built files, loaded here, would count as this suite's uncovered code.
  const loaded = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(join(ROOT, root.exports['./client']!.import))}); console.log(typeof m.createGatewayClient)`,
    ],
    { env: { ...process.env, ...UNCOVERED_CHILD } },
  )
  t.equal(loaded.stdout.trim(), 'function', 'swap-gateway/client loads')
})
