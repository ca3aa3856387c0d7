// CONTRACT.md §11: a frontend team generates its types from the served document with
// openapi-typescript (as for openapi-fetch) and uses the named schemas and operations, typed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import t from 'tap'
import ts from 'typescript'
import { startGateway } from '../helpers/gateway.js'

t.test(
  'a client generated from the served document with openapi-typescript compiles against it',
  async (t) => {
    const { app } = await startGateway(t)
    const doc: unknown = (await app.inject({ url: '/api/openapi.json' })).json()
    const dir = await mkdtemp(join(tmpdir(), 'gateway-openapi-'))
    t.teardown(() => rm(dir, { recursive: true, force: true }))
    await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(doc as never)))
    const fixture = `import type { components, operations } from './api.js'
type Order = components['schemas']['Order']
type Create = operations['createOrder']
type Created = Create['responses'][201]['content']['application/json']
type Body = Create['requestBody'] extends { content: { 'application/json': infer B } } | undefined ? B : never

export const body: Body = {
  depositTokenId: 1, settleTokenId: 2, receivingAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  intendedAmount: 100, intendedIsDeposit: true,
}
export const show = (order: Order): string => \`\${order.uuid} \${order.status} \${order.minimalAmount.toFixed(2)}\`
export const deposit = (created: Created): string => created.depositToken.symbol + (created.walletAddress ?? '')
export const query: operations['getQuote']['parameters']['query'] = {
  depositTokenId: 1, settleTokenId: 2, amount: 1.5, amountIsDeposit: true,
}
export const side: components['schemas']['Problem']['side'] = 'settle'
export const nonce = (p: components['schemas']['Problem']): string | undefined => p.challenge?.nonce
// @ts-expect-error an order's status is one of its statuses
export const status: Order['status'] = 'LOST'
// @ts-expect-error a token id is a number, not text
export const id: Body['depositTokenId'] = '1'
// @ts-expect-error a problem's code is one of the catalogue's
export const code: components['schemas']['Problem']['code'] = 'NOPE'
`
    await writeFile(join(dir, 'fixture.ts'), fixture)
    const program = ts.createProgram([join(dir, 'fixture.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    })
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    t.same(diagnostics, [], 'the fixture type-checks against the generated types')
  },
)
