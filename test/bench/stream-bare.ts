// The baseline of the stream benchmark: a bare Fastify SSE broadcaster, in its own process. Each
// stream gets a snapshot-sized first event and a heartbeat, like the gateway's; `broadcast` writes one
// pre-serialised event per group to every stream of that group, as the gateway does per order, and
// with `end` ends every stream after it, as the gateway does after a terminal status.
import type { ServerResponse } from 'node:http'
import Fastify from 'fastify'
import { serve, settledMemory, wallNow } from './stream-ipc.js'

const payloadBytes = Number(process.argv[2] ?? 2000)
const filler = 'x'.repeat(payloadBytes)
const snapshot = Buffer.from(`retry: 5000\nevent: snapshot\nid: 1\ndata: {"filler":"${filler}"}\n\n`)
const heartbeat = Buffer.from(': heartbeat\n\n')
const groups = new Map<string, Set<ServerResponse>>()

const app = Fastify()
app.get<{ Params: { group: string } }>('/bare/:group/status-stream', (request, reply) => {
  reply.hijack()
  const res = reply.raw
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  res.write(snapshot)
  const group = groups.get(request.params.group) ?? new Set()
  groups.set(request.params.group, group)
  group.add(res)
  res.once('close', () => group.delete(res))
})
const beat = setInterval(() => {
  for (const group of groups.values()) for (const res of group) res.write(heartbeat)
}, 15_000)
beat.unref()
const url = await app.listen({ port: 0, host: '127.0.0.1' })

let round = 0
serve(
  async (message) => {
    if (message.type === 'measure') return { type: 'memory', ...settledMemory(), stats: {} }
    if (message.type === 'broadcast') {
      round++
      const t0 = wallNow()
      for (const [name, group] of groups) {
        const data = JSON.stringify({ orderId: name, round, filler })
        const frame = Buffer.from(`event: orders:status-update\nid: ${Date.now()}\ndata: ${data}\n\n`)
        for (const res of group) res.write(frame)
        if (message.end) for (const res of [...group]) res.end()
      }
      return { type: 'broadcasted', t0 }
    }
    return undefined
  },
  { type: 'ready', url },
)
