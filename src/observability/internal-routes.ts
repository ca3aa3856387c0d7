// Routes of the internal port (METRICS_PORT), beside /metrics: operators' tools that must never be
// reachable from the public port (the failed webhook deliveries, say). A capability adds its own
// through `app.internalRoutes.add`; failures answer problem documents as the public port's do.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { GatewayError, PROBLEM_CONTENT_TYPE, renderProblem } from '../errors.js'
import { problems } from '../problems.js'

export interface InternalRequest {
  /** The values of the path's `:name` segments, decoded. */
  params: Record<string, string>
  query: URLSearchParams
  /** The JSON body; undefined when there is none. */
  body: unknown
}

export interface InternalRoute {
  method: 'GET' | 'POST'
  /** Such as `/webhooks/deliveries/:eventId/retry`. */
  path: string
  handle(request: InternalRequest): Promise<{ status: number; body: unknown }>
}

export interface InternalRoutes {
  add(route: InternalRoute): void
}

/** Bodies of the internal routes are small JSON documents. */
const MAX_BODY_BYTES = 64 * 1024

export class InternalRouter implements InternalRoutes {
  private readonly routes: InternalRoute[] = []

  constructor(
    private readonly typeBase: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(route: InternalRoute): void {
    this.routes.push(route)
  }

  /** Answers the request when a route matches it; false otherwise. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://internal')
    for (const route of this.routes) {
      const params = route.method === req.method ? match(route.path, url.pathname) : undefined
      if (params === undefined) continue
      void this.run(route, req, res, { params, query: url.searchParams })
      return true
    }
    return false
  }

  private async run(
    route: InternalRoute,
    req: IncomingMessage,
    res: ServerResponse,
    request: Omit<InternalRequest, 'body'>,
  ) {
    const requestId = randomUUID()
    try {
      const { status, body } = await route.handle({ ...request, body: await readJson(req) })
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId })
      res.end(JSON.stringify(body))
    } catch (err) {
      const problem = err instanceof GatewayError ? err : problems.internal(err)
      if (problem.status >= 500) this.log.error({ err, route: route.path }, 'internal route failed')
      res.writeHead(problem.status, { 'content-type': PROBLEM_CONTENT_TYPE, 'x-request-id': requestId })
      res.end(renderProblem(problem, requestId, this.typeBase))
    }
  }
}

function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, part] of want.entries()) {
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(got[i]!)
      } catch {
        return undefined
      }
    } else if (part !== got[i]) return undefined
  }
  return params
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw problems.bodyTooLarge()
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw problems.bodyNotJson()
  }
}
