// How a benchmark starts one of its sibling scripts. `npm run bench` compiles src and test/bench to
// .bench/ and runs them with plain node, as production runs dist/ (tsx, even idle, costs about 5% of
// a request); run from source, the sibling is loaded through tsx instead.
import { fileURLToPath } from 'node:url'

export function scriptArgs(sibling: string): string[] {
  const compiled = import.meta.url.endsWith('.js')
  const file = fileURLToPath(new URL(compiled ? sibling.replace(/\.ts$/, '.js') : sibling, import.meta.url))
  return compiled ? [file] : ['--import', 'tsx', file]
}
