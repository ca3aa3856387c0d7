// Ports for browser tests: a server listening on localhost's free port, and a free port found ahead,
// so that a gateway's PUBLIC_ORIGIN (http://localhost:$PORT) can name it before it listens.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve))
  return (server.address() as AddressInfo).port
}

export async function freePort(): Promise<number> {
  const probe = createServer()
  const port = await listen(probe)
  await new Promise((resolve) => probe.close(resolve))
  return port
}
