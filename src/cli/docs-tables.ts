// `npm run docs:tables`: rewrites the generated tables of docs/ (doc-regions.ts) from the code.
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { REGIONS, withRegion } from './doc-regions.js'

const ROOT = resolve(import.meta.dirname, '../..')

for (const region of REGIONS) {
  const path = join(ROOT, region.file)
  await writeFile(path, withRegion(await readFile(path, 'utf8'), region.name, region.body()))
  process.stdout.write(`${region.file}: ${region.name}\n`)
}
