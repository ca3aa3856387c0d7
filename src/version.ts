// The gateway's version, from its package.json (one level above src/ and dist/ alike), read once.
import { readFileSync } from 'node:fs'

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version
