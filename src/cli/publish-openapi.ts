// `npm run openapi [file]`: writes the OpenAPI document to a file (openapi.json by default) for
// publishing, without serving anything.
import { writeFile } from 'node:fs/promises'
import { offlineDocument } from './offline-document.js'

const file = process.argv[2] ?? 'openapi.json'
await writeFile(file, `${JSON.stringify(await offlineDocument(process.env), null, 2)}\n`)
process.stdout.write(`wrote ${file}\n`)
