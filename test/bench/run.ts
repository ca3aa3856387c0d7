// npm run bench [core|catalog|stream|quote|wallet|notify ...]: runs the named benchmarks (all by default), one at a time.
import { benchCatalog } from './catalog.js'
import { benchCore } from './core.js'
import { benchNotify } from './notify.js'
import { benchQuote } from './quote.js'
import { benchStream } from './stream.js'
import { benchWallet } from './wallet.js'

const all: Record<string, () => Promise<void>> = {
  core: benchCore,
  catalog: benchCatalog,
  stream: benchStream,
  quote: benchQuote,
  wallet: benchWallet,
  notify: benchNotify,
}
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(all)
for (const name of names) {
  const bench = all[name]
  if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(all).join(', ')}`)
  await bench()
}
