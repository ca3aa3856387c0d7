// The upstream's address as the fleet knows it: a TCP relay to the sandbox on a fixed port, so the test
// can make the upstream refuse connections (the port closed, open connections reset) and come back.
import { createServer, connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

export interface Relay {
  url: string
  /** Closes the port and resets every open connection: the upstream refuses connections. */
  refuse(): Promise<void>
  /** Opens the port again. */
  accept(): Promise<void>
}

export async function startRelay(t: Test, target: string): Promise<Relay> {
  const { hostname, port: targetPort } = new URL(target)
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), hostname)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
  await listen(0)
  const { port } = server.address() as AddressInfo
  const refuse = async () => {
    const closed = new Promise((resolve) => server.close(resolve))
    const gone = [...sockets].map((s) => new Promise((resolve) => s.once('close', resolve)))
    for (const s of sockets) {
      // Only an established connection not yet ending can be reset: once its end() has started the
      // shutdown, Node's reset fails (EINVAL) and leaves the handle open for good, and the process
      // then spins at exit waiting for it. Those, and connections still connecting, are destroyed.
      if (s.connecting || s.writableEnded) s.destroy()
      else s.resetAndDestroy()
    }
    // Every socket's close, not just the server's: a handle left open shows here, not as a hung exit.
    await Promise.all([closed, ...gone])
  }
  t.teardown(async () => {
    if (server.listening) await refuse()
  })
  return { url: `http://127.0.0.1:${port}`, refuse, accept: () => listen(port) }
}
