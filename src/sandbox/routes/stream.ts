// GET /orders/:orderUUID/status-stream (no /v1 prefix). No credential; any uuid opens a stream,
// known or not, as the upstream does.
import type { FastifyInstance } from 'fastify'
import type { SandboxContext } from '../context.js'

export function streamRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<{ Params: { orderUUID: string } }>('/orders/:orderUUID/status-stream', (request, reply) => {
    reply.hijack()
    ctx.streams.attach(request.params.orderUUID, reply.raw)
    if (ctx.dropsAfter(request)) request.raw.socket.destroy()
  })
}
