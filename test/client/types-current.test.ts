// The client's types are generated from the served OpenAPI document (npm run client:types): a route
// that changes what it declares without the client's types following fails here.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { CLIENT_TYPES_FILE, clientTypes } from '../../src/cli/client-types.js'
import type { OpenApiDocument } from '../../src/docs/openapi-document.js'
import { startGateway } from '../helpers/gateway.js'

t.test("the client's generated types are those of the document the gateway serves", async (t) => {
  const { app } = await startGateway(t)
  const document = (await app.inject({ url: '/api/openapi.json' })).json() as OpenApiDocument
  const current = await readFile(CLIENT_TYPES_FILE, 'utf8')
  t.equal(
    current,
    await clientTypes(document),
    'packages/client/src/openapi-types.ts is current: run `npm run client:types`',
  )
  t.match(current, /export interface operationProblems \{/, 'with the problem codes of each operation')
  t.match(
    current,
    /followOrder: \{\s+snapshot: components\['schemas'\]\['Snapshot'\]/,
    "and each stream's events",
  )
})
