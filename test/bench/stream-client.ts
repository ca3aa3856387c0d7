// The stream benchmark's clients, in their own process: opens N raw SSE connections, and reports when
// the last of them received each round's status-update. Raw http, not EventSource: the measurement
// must time the server, not a heavyweight client.
import http from 'node:http'
import { serve, wallNow } from './stream-ipc.js'

const MARK = 'event: orders:status-update'

interface Connection {
  req: http.ClientRequest
  /** Status updates seen so far. */
  seen: number
  tail: string
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
const connections: Connection[] = []
/** Per round: how many connections reached it, and when the first and the last did. */
const rounds = new Map<number, { count: number; first: number; last: number }>()
let onProgress: () => void = () => {}

function open(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        reject(new Error(`${url}: ${res.statusCode}`))
        return
      }
      const conn: Connection = { req, seen: 0, tail: '' }
      connections.push(conn)
      let opened = false
      res.setEncoding('latin1')
      res.on('data', (chunk: string) => {
        const at = wallNow()
        const text = conn.tail + chunk
        if (!opened && text.includes('event: snapshot')) {
          opened = true
          resolve()
        }
        // Occurrences wholly inside the tail were counted with the previous chunk.
        for (let i = text.indexOf(MARK, Math.max(0, conn.tail.length - MARK.length + 1)); i >= 0; ) {
          conn.seen++
          const round = rounds.get(conn.seen) ?? { count: 0, first: at, last: at }
          round.count++
          round.last = at
          rounds.set(conn.seen, round)
          i = text.indexOf(MARK, i + MARK.length)
        }
        conn.tail = text.slice(-64)
        onProgress()
      })
    })
    req.on('error', reject)
  })
}

async function openAll(urls: string[], perUrl: number, concurrency: number) {
  const queue = urls.flatMap((url) => Array.from({ length: perUrl }, () => url))
  let next = 0
  const worker = async () => {
    while (next < queue.length) await open(queue[next++]!)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

function roundDone(round: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, timeoutMs)
    function finish() {
      clearTimeout(timer)
      onProgress = () => {}
      resolve()
    }
    onProgress = () => {
      if ((rounds.get(round)?.count ?? 0) >= connections.length) finish()
    }
    onProgress()
  })
}

serve(async (message) => {
  switch (message.type) {
    case 'open': {
      const started = wallNow()
      await openAll(message.urls as string[], message.perUrl as number, message.concurrency as number)
      return { type: 'opened', count: connections.length, ms: wallNow() - started }
    }
    case 'await-round': {
      const round = message.round as number
      await roundDone(round, message.timeoutMs as number)
      return { type: 'round', round, connections: connections.length, ...rounds.get(round) }
    }
    case 'close': {
      for (const conn of connections.splice(0)) conn.req.destroy()
      rounds.clear()
      return { type: 'closed' }
    }
    default:
      return undefined
  }
})
