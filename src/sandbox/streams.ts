// The upstream's SSE status streams: no snapshot, no heartbeat, no replay. A stream only speaks
// when its order changes status, and the server hangs up after `idleCloseMs` of silence (each
// event restarts that clock), which is the behaviour a gateway has to survive.
import type { ServerResponse } from 'node:http'
import type { Clock, Timer } from '../clock.js'
import type { OrderStatus, StatusEvent } from './resources.js'

const EVENT_NAME = 'orders:status-update'
const RETRY_MS = 5000

interface OpenStream {
  uuid: string
  res: ServerResponse
  idle: Timer
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
  /** By order, so an event costs the order's streams, not every stream the sandbox holds. */
  private readonly open = new Map<string, Set<OpenStream>>()
  private total = 0

  constructor(
    private readonly clock: Clock,
    private readonly idleCloseMs: number,
  ) {}

  /** Takes over a raw response: status line, headers and the initial empty line. */
  attach(uuid: string, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    res.write('\n')
    const stream: OpenStream = { uuid, res, idle: this.idleTimer(res) }
    const mine = this.open.get(uuid) ?? new Set()
    this.open.set(uuid, mine.add(stream))
    this.total++
    res.on('close', () => {
      this.clock.clearTimeout(stream.idle)
      this.forget(stream)
    })
  }

  publish(uuid: string, status: OrderStatus, at: number): void {
    const frame = formatStatusEvent(uuid, status, at)
    for (const stream of this.open.get(uuid) ?? []) {
      this.clock.clearTimeout(stream.idle)
      stream.res.write(frame)
      stream.idle = this.idleTimer(stream.res)
    }
  }

  count(uuid?: string): number {
    return uuid === undefined ? this.total : (this.open.get(uuid)?.size ?? 0)
  }

  /** Ends streams from the server side, as the upstream does when it resets; returns how many. */
  close(uuid?: string): number {
    const streams = uuid === undefined ? [...this.open.values()] : [this.open.get(uuid) ?? []]
    let closed = 0
    for (const stream of streams.flatMap((mine) => [...mine])) {
      this.clock.clearTimeout(stream.idle)
      this.forget(stream)
      stream.res.end()
      closed++
    }
    return closed
  }

  private forget(stream: OpenStream): void {
    const mine = this.open.get(stream.uuid)
    if (!mine?.delete(stream)) return
    this.total--
    if (mine.size === 0) this.open.delete(stream.uuid)
  }

  private idleTimer(res: ServerResponse): Timer {
    return this.clock.setTimeout(() => res.end(), this.idleCloseMs)
  }
}
