// The sandbox as the gateway's development upstream: listening on a free loopback port.
import type { StartDevUpstream } from '../dev/upstream.js'
import { buildSandbox } from './app.js'

export const startSandbox: StartDevUpstream = async ({ tenantKey }) => {
  const { app, control } = buildSandbox({ tenantKey })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url, lapsed: (accessToken) => !control.isAccessTokenLive(accessToken), close: () => app.close() }
}
