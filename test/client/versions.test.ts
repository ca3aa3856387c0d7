// One version for what is released together: the gateway package, the OpenAPI document it serves
// (`info.version`), and the client package typed from that document.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { offlineDocument } from '../../src/cli/offline-document.js'

const versionOf = async (manifest: string) =>
  (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version

t.test("the document's info.version is the gateway package's, and so is the client package's", async (t) => {
  const gateway = await versionOf('package.json')
  const document = (await offlineDocument({})) as { info: { version: string } }
  t.equal(document.info.version, gateway, 'the document states the version of the gateway serving it')
  t.equal(await versionOf('packages/client/package.json'), gateway, 'the client carries the same version')
})
