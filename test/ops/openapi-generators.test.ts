// A frontend team generates its client from the served document with the tools teams use, and gets
// types without holes: openapi-typescript (as for openapi-fetch) and @hey-api/openapi-ts, whose generated SDK then follows an order's status stream with typed events.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createClient } from '@hey-api/openapi-ts'
import openapiTS, { astToString } from 'openapi-typescript'
import t, { type Test } from 'tap'
import ts from 'typescript'
import { clientGateway } from '../client/setup.js'
import { orderBody } from '../helpers/picks.js'
import { subscribed } from '../status-stream/setup.js'

// Generating and compiling take a while on two cores.
t.setTimeout(180_000)

const STRICT: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: false,
  types: [],
}

/** Diagnostics of a strict compile, as text. */
function compile(files: string[], options: ts.CompilerOptions = STRICT): string[] {
  const program = ts.createProgram(files, options)
  const emitted = options.noEmit ? [] : program.emit().diagnostics
  return [...ts.getPreEmitDiagnostics(program), ...emitted].map(
    (d) =>
      `${d.file ? `${d.file.fileName.split('/').at(-1)}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  )
}

const gw = await clientGateway(t)
const doc: unknown = await (await fetch(`${gw.url}/api/openapi.json`)).json()

async function tempDir(t: Test, name: string) {
  const dir = await mkdtemp(join(tmpdir(), name))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** Every event's name reaches the generated types, as the constant of its data's `event`. */
function namesEvents(t: Test, generated: string) {
  for (const name of ['snapshot', 'orders:status-update', 'quote', 'problem', 'end']) {
    t.match(generated, new RegExp(`event: ['"]${name}['"]`), `the generated types name the ${name} event`)
  }
}

t.test(
  'openapi-typescript: the generated types compile strict, bodies without holes, events typed',
  async (t) => {
    const dir = await tempDir(t, 'gateway-openapi-typescript-')
    await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(doc as never)))
    const fixture = `import type { components, operations } from './api.js'
type Order = components['schemas']['Order']
type Create = operations['createOrder']
type Created = Create['responses'][201]['content']['application/json']
type Body = NonNullable<Create['requestBody']>['content']['application/json']
type Event = operations['followOrder']['responses'][200]['content']['text/event-stream']
type Session = components['schemas']['Session']
type QuoteEvent = operations['watchQuote']['responses'][200]['content']['text/event-stream']

export const body: Body = {
  depositTokenId: 1, settleTokenId: 2, receivingAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  intendedAmount: 100, intendedIsDeposit: true,
}
export const show = (order: Order): string =>
  \`\${order.uuid} \${order.status} \${order.minimalAmount.toFixed(2)} to \${order.walletAddress.trim()}\`
export const deposit = (created: Created): string => created.depositToken.symbol + created.walletAddress
export const leg = (order: Order): 'SELL' | 'BUY' | undefined => order.tradePath[0]?.side
export const query: operations['getQuote']['parameters']['query'] = {
  depositTokenId: 1, settleTokenId: 2, amount: 1.5, amountIsDeposit: true,
}
export const side: components['schemas']['Problem']['side'] = 'settle'
export const nonce = (p: components['schemas']['Problem']): string | undefined => p.challenge?.nonce
export const status = (event: Event): string => ('orderId' in event ? event.status : event.walletAddress)
// The events' data name their event, so the union narrows on it.
export const named = (event: Event): string => (event.event === 'snapshot' ? event.walletAddress : event.orderId)
export const quoted = (event: QuoteEvent): string =>
  event.event === 'quote' ? event.quotedAt : event.event === 'problem' ? event.code : event.reason
// @ts-expect-error the status stream has no quote event
export const unnamed = (event: Event): boolean => event.event === 'quote'
export const expiry = (s: Session): string | undefined => (s.signedIn ? s.expiresAt : s.expired ? s.address : undefined)
export const limits: components['schemas']['SwapLimits'] = { minimalAmount: 15, anything: 'goes' }
export const me = (m: components['schemas']['Me']): string => m.id
// @ts-expect-error an order's status is one of its statuses
export const lost: Order['status'] = 'LOST'
// @ts-expect-error a token id is a number, not text
export const id: Body['depositTokenId'] = '1'
// @ts-expect-error a problem's code is one of the catalogue's
export const code: components['schemas']['Problem']['code'] = 'NOPE'
// @ts-expect-error the deposit address is walletAddress: a misspelt field is an error
export const misspelt = (order: Order) => order.depositAddress
// @ts-expect-error a quote names its fields: no index signature
export const extra = (quote: components['schemas']['Quote']) => quote.rate
`
    await writeFile(join(dir, 'fixture.ts'), fixture)
    t.same(compile([join(dir, 'fixture.ts')]), [], 'the fixture type-checks against the generated types')
    namesEvents(t, await readFile(join(dir, 'api.ts'), 'utf8'))
  },
)

t.test('@hey-api/openapi-ts: the SDK compiles strict and follows an order with typed events', async (t) => {
  const dir = await tempDir(t, 'gateway-hey-api-')
  await createClient({
    input: doc as never,
    output: join(dir, 'sdk'),
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  })
  const follower = `import { client } from './sdk/client.gen.js'
import { createOrder, followOrder } from './sdk/sdk.gen.js'
import type { OrderStatus } from './sdk/types.gen.js'

export interface Seen { event: string | undefined; named: string; status: OrderStatus; order: string }

/** Creates an order and follows it until 'until' says stop; every event's data typed, none a string. */
export async function follow(baseUrl: string, body: Parameters<typeof createOrder>[0]['body'], move: (uuid: string) => void) {
  client.setConfig({ baseUrl })
  const created = await createOrder({ body, throwOnError: true })
  const uuid: string = created.data.uuid
  const names: Array<string | undefined> = []
  const { stream } = await followOrder({
    path: { uuid },
    sseMaxRetryAttempts: 0,
    onSseEvent: (event) => { names.push(event.event) },
  })
  const seen: Seen[] = []
  for await (const data of stream) {
    if (!data) continue
    // A snapshot is the order; an update carries orderId and the order re-read after it.
    const status: OrderStatus = data.status
    const order = data.event === 'orders:status-update' ? data.orderId : data.uuid
    seen.push({ event: names.at(-1), named: data.event, status, order })
    if (seen.length === 1) move(uuid)
    if (status === 'COMPLETED') break
  }
  return { uuid, seen }
}
// @ts-expect-error the events are typed: not a string
export const notText = (data: Awaited<ReturnType<typeof followOrder>>['stream'] extends AsyncGenerator<infer D> ? D : never): string => data
`
  namesEvents(t, await readFile(join(dir, 'sdk', 'types.gen.ts'), 'utf8'))
  await writeFile(join(dir, 'follower.ts'), follower)
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  const out = join(dir, 'out')
  t.same(
    compile([join(dir, 'follower.ts')], { ...STRICT, noEmit: false, outDir: out, rootDir: dir }),
    [],
    'the generated SDK and a program using it compile strict (DOM libraries, no skipLibCheck)',
  )

  const { follow } = (await import(pathToFileURL(join(out, 'follower.js')).href)) as {
    follow(
      baseUrl: string,
      body: unknown,
      move: (uuid: string) => void,
    ): Promise<{ uuid: string; seen: Array<{ event: string; named: string; status: string; order: string }> }>
  }
  const { uuid, seen } = await follow(gw.url, orderBody(gw.p), (id) => {
    // The stream is open: once the gateway follows the order upstream, move it along in the sandbox.
    subscribed(gw.control, id).then(
      () => {
        gw.control.deposit(id)
        gw.control.confirm(id)
        gw.control.complete(id)
      },
      (err: unknown) => t.error(err),
    )
  })
  t.same(
    seen[0],
    { event: 'snapshot', named: 'snapshot', status: 'AWAITING_USER_DEPOSIT', order: uuid },
    'the snapshot, typed',
  )
  t.same(
    seen.slice(1).map((s) => [s.event, s.named, s.status, s.order === uuid]),
    [
      ['orders:status-update', 'orders:status-update', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', true],
      ['orders:status-update', 'orders:status-update', 'PROCESSING', true],
      ['orders:status-update', 'orders:status-update', 'COMPLETED', true],
    ],
    'every status change, as parsed objects',
  )
})
