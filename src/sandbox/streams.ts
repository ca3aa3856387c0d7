// The upstream's SSE status streams: no snapshot, no heartbeat, no replay. A stream only speaks
// when its order changes status, and the server hangs up after `idleCloseMs` of silence (each
// event restarts that clock), which is the behaviour a gateway has to survive.
import type { ServerResponse } from 'node:http'
import type { OrderStatus, StatusEvent } from './resources.js'

const EVENT_NAME = 'orders:status-update'
const RETRY_MS = 5000

interface OpenStream {
  uuid: string
  res: ServerResponse
  idle: NodeJS.Timeout
}

function formatStatusEvent(uuid: string, status: OrderStatus, at: number): string {
  const data: StatusEvent = {
    orderId: uuid,
    status,
    message: 'order update',
    updatedAt: new Date(at).toISOString(),
  }
  return `event: ${EVENT_NAME}\nid: ${at}\nretry: ${RETRY_MS}\ndata: ${JSON.stringify(data)}\n\n`
}

export class OrderStreams {
  private readonly open = new Set<OpenStream>()

  constructor(private readonly idleCloseMs: number) {}

  /** Takes over a raw response: status line, headers and the initial empty line. */
  attach(uuid: string, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    res.write('\n')
    const stream: OpenStream = { uuid, res, idle: this.idleTimer(res) }
    this.open.add(stream)
    res.on('close', () => {
      clearTimeout(stream.idle)
      this.open.delete(stream)
    })
  }

  publish(uuid: string, status: OrderStatus, at: number): void {
    const frame = formatStatusEvent(uuid, status, at)
    for (const stream of this.open) {
      if (stream.uuid !== uuid) continue
      clearTimeout(stream.idle)
      stream.res.write(frame)
      stream.idle = this.idleTimer(stream.res)
    }
  }

  count(uuid?: string): number {
    let n = 0
    for (const stream of this.open) if (uuid === undefined || stream.uuid === uuid) n++
    return n
  }

  /** Ends streams from the server side, as the upstream does when it resets; returns how many. */
  close(uuid?: string): number {
    let closed = 0
    for (const stream of [...this.open]) {
      if (uuid !== undefined && stream.uuid !== uuid) continue
      clearTimeout(stream.idle)
      this.open.delete(stream)
      stream.res.end()
      closed++
    }
    return closed
  }

  private idleTimer(res: ServerResponse): NodeJS.Timeout {
    return setTimeout(() => res.end(), this.idleCloseMs)
  }
}
