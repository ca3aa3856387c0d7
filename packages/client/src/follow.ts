// followOrder: the order's status stream through an EventSource (the browser's, or any class with
// its interface), typed, ended by the client itself at a terminal status so nothing reconnects.
import { clientProblem, type MethodProblem } from './problem.js'
import type { Order, OrderStatus, Snapshot, StatusUpdate, StreamEvents } from './types.js'

// The event names the document declares for this stream: `satisfies` fails the build when they change.
type Events = StreamEvents<'followOrder'>
const SNAPSHOT = 'snapshot' satisfies keyof Events
const STATUS = 'orders:status-update' satisfies keyof Events
const TERMINAL: ReadonlySet<string> = new Set(['COMPLETED', 'ERROR', 'TIMED_OUT'] satisfies OrderStatus[])
/** EventSource.CLOSED: the source gave up and will not reconnect. */
const CLOSED = 2

export interface EventSourceLike {
  readonly readyState: number
  addEventListener(type: string, listener: (event: { data?: unknown; code?: number }) => void): void
  close(): void
}
export type EventSourceConstructor = new (
  url: string,
  /**
   * `headers`: sent on each connection by EventSource classes that take them (React Native's
   * react-native-sse, event-source-polyfill); the browser's own ignores them and sends the cookie.
   */
  init?: { withCredentials?: boolean; headers?: Record<string, string> },
) => EventSourceLike

export interface FollowHandlers {
  /** The order as it is when the stream opens (again after a reconnect). */
  onSnapshot?(order: Snapshot): void
  /** Every status change, with the order re-read after it (`order`, when the gateway could read it). */
  onUpdate?(update: StatusUpdate): void
  /** The order reached COMPLETED, ERROR or TIMED_OUT: the final order; the stream is closed. */
  onEnd?(order: Order): void
  /** The stream cannot be followed: why, as a GatewayProblem; the stream is closed. */
  onError?(problem: MethodProblem<'followOrder'>): void
}

export interface Following {
  /** Stops following; no handler is called afterwards. */
  close(): void
}

export interface FollowDeps {
  url: string
  EventSource: EventSourceConstructor
  withCredentials: boolean
  readOrder(): Promise<Order>
}

const problem = (
  code: 'UNEXPECTED_RESPONSE' | 'STREAM_UNAVAILABLE',
  detail: string,
  status: number,
  cause?: unknown,
) =>
  clientProblem(
    code,
    detail,
    { status, requestId: '', method: 'followOrder' },
    cause,
  ) as MethodProblem<'followOrder'>

export function followOrder(deps: FollowDeps, handlers: FollowHandlers): Following {
  const source = new deps.EventSource(deps.url, { withCredentials: deps.withCredentials })
  /** `reading`: the source is closed and one read of the order decides how the follow ends. */
  let state: 'open' | 'reading' | 'done' = 'open'
  const settle = (then: () => void) => {
    if (state === 'done') return
    state = 'done'
    source.close()
    then()
  }
  const end = (order: Order) => settle(() => handlers.onEnd?.(order))
  const fail = (problem: MethodProblem<'followOrder'>) => settle(() => handlers.onError?.(problem))
  const readOrder = (then: (order: Order) => void) => {
    state = 'reading'
    source.close()
    deps.readOrder().then(then, (err: MethodProblem<'followOrder'>) => fail(err))
  }
  const parse = <T>(data: unknown): T | undefined => {
    try {
      return JSON.parse(String(data)) as T
    } catch (err) {
      const detail = 'The status stream sent an event that is not JSON.'
      fail(problem('UNEXPECTED_RESPONSE', detail, 200, err))
      return undefined
    }
  }

  source.addEventListener(SNAPSHOT, (event) => {
    if (state !== 'open') return
    const order = parse<Snapshot>(event.data)
    if (!order) return
    handlers.onSnapshot?.(order)
    if (TERMINAL.has(order.status)) end(order)
  })
  source.addEventListener(STATUS, (event) => {
    if (state !== 'open') return
    const update = parse<StatusUpdate>(event.data)
    if (!update) return
    handlers.onUpdate?.(update)
    if (!TERMINAL.has(update.status)) return
    // The gateway sends the update without `order` when it could not re-read it: read it here.
    if (update.order) end(update.order)
    else readOrder(end)
  })
  source.addEventListener('error', (event) => {
    // While CONNECTING the source retries by itself, and the next snapshot brings the order up to date.
    if (state !== 'open' || source.readyState !== CLOSED) return
    // It gave up: a 4xx/5xx whose problem document EventSource cannot show, or the 204 that follows
    // a terminal order. One read of the order says which (and its problem is the one to report).
    readOrder((order) => {
      if (TERMINAL.has(order.status)) return end(order)
      const detail = 'The status stream was refused, though the order reads fine: try again later.'
      fail(problem('STREAM_UNAVAILABLE', detail, event.code ?? 0))
    })
  })

  return {
    close() {
      state = 'done'
      source.close()
    },
  }
}
