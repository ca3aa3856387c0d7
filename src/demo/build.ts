// `npm run build`'s second step: bundles the demo page's script from the sources and writes it with
// its styles into the build (`<outDir>/demo/assets`), where the compiled demo module serves them from.
// No source map: the build is what production runs.
// Usage: node --import tsx src/demo/build.ts [outDir], outDir defaulting to tsconfig.build.json's.
import { readFile } from 'node:fs/promises'
import { bundleDemo, writeDemo } from './bundle.js'

const config = JSON.parse(await readFile('tsconfig.build.json', 'utf8')) as {
  compilerOptions: { outDir: string }
}
const outDir = process.argv[2] ?? config.compilerOptions.outDir
const bundle = await bundleDemo({ sourceMap: false })
await writeDemo(bundle, outDir)
process.stdout.write(`demo: ${[...bundle.assets.keys()].join(', ')} → ${outDir}/demo/assets\n`)
