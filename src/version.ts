// The gateway's version, from its package.json, read once: the nearest one above this file whose name
// is the gateway's (one level above src/ and dist/, two above the benchmarks' compiled copy in .bench/).
import { existsSync, readFileSync } from 'node:fs'

function gatewayPackage(): { version: string } {
  for (const up of ['../package.json', '../../package.json']) {
    const url = new URL(up, import.meta.url)
    if (!existsSync(url)) continue
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version: string }
    if (pkg.name === 'swap-gateway') return pkg
  }
  throw new Error('swap-gateway: package.json not found above src/ or dist/')
}

export const VERSION: string = gatewayPackage().version
