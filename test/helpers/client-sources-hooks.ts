// The resolve hook registered by client-sources.ts: `swap-gateway-client` is the workspace's sources.
const SOURCES = new URL('../../packages/client/src/index.ts', import.meta.url).href

type Resolve = (specifier: string, context: unknown) => Promise<unknown>

export function resolve(specifier: string, context: unknown, next: Resolve): Promise<unknown> {
  return next(specifier === 'swap-gateway-client' ? SOURCES : specifier, context)
}
