// An order made at the upstream directly, not through the gateway: one created through the gateway is
// watched (its upstream subscription and reads), which tests counting upstream calls or streams of
// another feature must not see.
import type { FastifyInstance } from 'fastify'
import type { SandboxControl } from '../../src/sandbox/app.js'
import { orderBody, picks } from './picks.js'

export async function upstreamOrder(
  sandbox: { app: FastifyInstance; control: SandboxControl },
  tenantKey: string,
): Promise<string> {
  const res = await sandbox.app.inject({
    method: 'POST',
    url: '/v1/orders/create',
    headers: { 'x-tenant-api-key': tenantKey },
    payload: orderBody(picks(sandbox.control.tokens())),
  })
  if (res.statusCode !== 200 && res.statusCode !== 201)
    throw new Error(`create failed: ${res.statusCode} ${res.body}`)
  return res.json<{ uuid: string }>().uuid
}
