// Light, steady load through the balancer: a few clients, each sending one request after another over
// keep-alive connections, every answer recorded. A failed request is any 5xx or a request that got no
// answer: with no retries at the balancer, that is exactly what a user would have seen.
import { Agent, fetch } from 'undici'

export interface Outcome {
  path: string
  status: number | 'no answer'
  contentType?: string
  body?: string
  at: number
}

export interface Load {
  outcomes: Outcome[]
  failures(): Outcome[]
  stop(): Promise<void>
}

export function startLoad(base: string, paths: () => string, clients = 2, pauseMs = 20): Load {
  const agent = new Agent({ keepAliveTimeout: 30_000 })
  const outcomes: Outcome[] = []
  let running = true
  const client = async () => {
    while (running) {
      const path = paths()
      try {
        const res = await fetch(`${base}${path}`, { dispatcher: agent })
        const body = await res.text()
        const failed = res.status >= 500
        outcomes.push({
          path,
          status: res.status,
          at: Date.now(),
          ...(failed ? { contentType: res.headers.get('content-type') ?? '', body: body.slice(0, 300) } : {}),
        })
      } catch (err) {
        outcomes.push({
          path,
          status: 'no answer',
          body: String((err as Error).cause ?? err),
          at: Date.now(),
        })
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
  }
  const done = Promise.all(Array.from({ length: clients }, client)).then(() => undefined)
  return {
    outcomes,
    failures: () => outcomes.filter((o) => o.status === 'no answer' || o.status >= 500),
    async stop() {
      if (!running) return done
      running = false
      await done
      await agent.close()
    },
  }
}
