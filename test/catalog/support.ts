// What the catalog tests share: the upstream's own catalog bytes, and addresses where no upstream
// answers.

import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import type { Test } from 'tap'
import type { Token } from '../../src/upstream/schemas.js'

/** The catalog exactly as the upstream serves it. */
export async function upstreamCatalog(sandboxUrl: string): Promise<{ raw: Buffer; tokens: Token[] }> {
  const res = await fetch(`${sandboxUrl}/v1/tokens`)
  const raw = Buffer.from(await res.arrayBuffer())
  return { raw, tokens: JSON.parse(raw.toString('utf8')) as Token[] }
}

/** A loopback URL nothing listens on: connections to it are refused. */
export async function refusingUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

/** A TCP server that accepts and at once resets every connection, counting them. */
export async function resettingUpstream(t: Test): Promise<{ url: string; connections: () => number }> {
  let count = 0
  const server = createServer((socket) => {
    count += 1
    socket.resetAndDestroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, connections: () => count }
}
