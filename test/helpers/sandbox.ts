// Starts a sandbox upstream on 127.0.0.1, port 0, closed when the test ends (closing ends open
// streams, pending delays and hung requests, so the test process can exit).
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import { buildSandbox, type SandboxControl, type SandboxOptions } from '../../src/sandbox/app.js'

export async function startSandbox(
  t: Test,
  opts?: SandboxOptions,
): Promise<{ url: string; control: SandboxControl; app: FastifyInstance }> {
  const { app, control } = buildSandbox(opts)
  t.teardown(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, control, app }
}
