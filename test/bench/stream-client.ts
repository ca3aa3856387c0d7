// The stream benchmark's clients, in their own process: N plain TCP connections speaking just enough
// HTTP/1.1 to open an SSE stream (open once its first event, a snapshot or a quote, has come), each
// reporting when it sees a status-update. Deliberately minimal
// (no HTTP client, no text decoding) so that the measurement times the server, not the client.
import net from 'node:net'
import { serve, wallNow } from './stream-ipc.js'

const MARK = Buffer.from('event: orders:status-update')
/** The first event of a status stream or of a live quote: the stream is open once it has come. */
const FIRST = [Buffer.from('event: snapshot'), Buffer.from('event: quote')]

interface Connection {
  socket: net.Socket
  /** Status updates seen so far. */
  seen: number
  /** The end of the previous chunk, for a mark cut in two by a chunk boundary. */
  tail: Buffer
}

const connections: Connection[] = []
/** Per round: how many connections reached it, and when the first and the last did. */
const rounds = new Map<number, { count: number; first: number; last: number }>()
let onProgress: () => void = () => {}

function count(conn: Connection, chunk: Buffer, at: number) {
  // Search the tail joined to the chunk's start only for marks that straddle the boundary.
  const joined = Buffer.concat([conn.tail, chunk.subarray(0, MARK.length - 1)])
  let found = joined.indexOf(MARK) >= 0 ? 1 : 0
  for (let i = chunk.indexOf(MARK); i >= 0; i = chunk.indexOf(MARK, i + MARK.length)) found++
  conn.tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (MARK.length - 1))))
  for (let k = 0; k < found; k++) {
    conn.seen++
    const round = rounds.get(conn.seen) ?? { count: 0, first: at, last: at }
    round.count++
    round.last = at
    rounds.set(conn.seen, round)
  }
  if (found > 0) onProgress()
}

function open(target: URL, authorization?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname)
    const conn: Connection = { socket, seen: 0, tail: Buffer.alloc(0) }
    let head: Buffer | undefined = Buffer.alloc(0)
    socket.setNoDelay(true)
    socket.once('error', reject)
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\nConnection: keep-alive\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}\r\n`,
    )
    socket.on('data', (chunk: Buffer) => {
      if (head) {
        head = Buffer.concat([head, chunk])
        const received = head
        if (!FIRST.some((mark) => received.indexOf(mark) >= 0)) return
        if (!head.subarray(0, 12).equals(Buffer.from('HTTP/1.1 200'))) {
          reject(new Error(`${target}: ${head.subarray(0, 40).toString()}`))
          socket.destroy()
          return
        }
        head = undefined
        connections.push(conn)
        resolve()
        return
      }
      count(conn, chunk, wallNow())
    })
  })
}

/** `authorizations`: the Authorization header of each URL's streams (wallet streams), by index. */
async function openAll(urls: string[], perUrl: number, concurrency: number, authorizations: string[] = []) {
  const queue = urls.flatMap((url, i) =>
    Array.from({ length: perUrl }, () => ({ url: new URL(url), authorization: authorizations[i] })),
  )
  let next = 0
  const worker = async () => {
    while (next < queue.length) {
      const { url, authorization } = queue[next++]!
      await open(url, authorization)
    }
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
      await openAll(
        message.urls as string[],
        message.perUrl as number,
        message.concurrency as number,
        message.authorizations as string[] | undefined,
      )
      return { type: 'opened', count: connections.length, ms: wallNow() - started }
    }
    case 'await-round': {
      const round = message.round as number
      await roundDone(round, message.timeoutMs as number)
      return { type: 'round', round, connections: connections.length, ...rounds.get(round) }
    }
    case 'close': {
      for (const conn of connections.splice(0)) conn.socket.destroy()
      rounds.clear()
      return { type: 'closed' }
    }
    default:
      return undefined
  }
})
