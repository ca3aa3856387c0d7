// followMyOrders: every order of the signed-in user on one stream, through an EventSource (the
// browser's, or any class with its interface), typed: the snapshot of the user's recent orders, each
// order they create, each status change of any of them. The gateway ends the stream when the session
// is logged out or lapses; the refusal that follows is read once: a lapsed session is signed back in
// (when the client holds a wallet) and the stream opened again, anything else goes to `onError`.
import type { EventSourceConstructor, EventSourceLike } from './follow.js'
import { clientProblem, type MethodProblem } from './problem.js'
import type { OrderHistoryItem, StatusUpdate, StreamEvents } from './types.js'

// The event names the document declares for this stream: `satisfies` fails the build when they change.
type Events = StreamEvents<'followMyOrders'>
const SNAPSHOT = 'snapshot' satisfies keyof Events
const CREATED = 'order-created' satisfies keyof Events
const STATUS = 'orders:status-update' satisfies keyof Events
/** EventSource.CLOSED: the source gave up and will not reconnect. */
const CLOSED = 2

/** The `order-created` event's data: the order as create answered it. */
export type CreatedOrder = Events['order-created']

export interface MyOrdersHandlers {
  /**
   * The user's most recent orders, newest first: at the start, and again after a reconnect that could
   * not be resumed. It replaces whatever list the app holds.
   */
  onSnapshot?(orders: OrderHistoryItem[]): void
  /** An order the user created, on this device or any other. */
  onCreated?(order: CreatedOrder): void
  /** A status change of one of the user's orders, with the order after it (`order`). */
  onUpdate?(update: StatusUpdate): void
  /**
   * The stream cannot go on: signed out (`AUTH_REQUIRED`), a lapsed session with no wallet to sign
   * again (`SESSION_EXPIRED`), or refused (`STREAM_UNAVAILABLE`...). The stream is closed.
   */
  onError?(problem: MethodProblem<'followMyOrders'>): void
}

export interface FollowingMyOrders {
  /** Stops following; no handler is called afterwards. */
  close(): void
}

export interface MyOrdersDeps {
  url: string
  EventSource: EventSourceConstructor
  withCredentials: boolean
  /** The Authorization header of token mode, read at each (re)open: a re-sign changes the token. */
  authorization(): string | undefined
  /**
   * Why the stream was refused: one read with the session, `resigned` when it had lapsed and the
   * client signed it back in; rejects with the problem otherwise.
   */
  check(): Promise<'fine' | 'resigned'>
}

export function followMyOrders(deps: MyOrdersDeps, handlers: MyOrdersHandlers): FollowingMyOrders {
  let source: EventSourceLike | undefined
  let done = false
  const fail = (problem: MethodProblem<'followMyOrders'>) => {
    if (done) return
    close()
    handlers.onError?.(problem)
  }
  const parse = <T>(data: unknown): T | undefined => {
    try {
      return JSON.parse(String(data)) as T
    } catch (err) {
      const detail = 'The wallet stream sent an event that is not JSON.'
      fail(
        clientProblem(
          'UNEXPECTED_RESPONSE',
          detail,
          { status: 200, requestId: '', method: 'followMyOrders' },
          err,
        ) as MethodProblem<'followMyOrders'>,
      )
      return undefined
    }
  }

  function open() {
    const authorization = deps.authorization()
    const current = new deps.EventSource(deps.url, {
      withCredentials: deps.withCredentials,
      ...(authorization === undefined ? {} : { headers: { authorization } }),
    })
    source = current
    const live = () => !done && source === current
    const on = <T>(name: string, deliver: (data: T) => void) =>
      current.addEventListener(name, (event) => {
        if (!live()) return
        const data = parse<T>(event.data)
        if (data) deliver(data)
      })
    on<Events['snapshot']>(SNAPSHOT, (snapshot) => handlers.onSnapshot?.(snapshot.orders))
    on<CreatedOrder>(CREATED, (order) => handlers.onCreated?.(order))
    on<StatusUpdate>(STATUS, (update) => handlers.onUpdate?.(update))
    current.addEventListener('error', (event) => {
      // While CONNECTING the source retries by itself, and resumes where it was.
      if (!live() || current.readyState !== CLOSED) return
      // It gave up: a refusal whose problem document EventSource cannot show. One read says why, and
      // signs a lapsed session back in when it can; then the stream is opened again.
      source = undefined
      deps.check().then(
        (outcome) => {
          if (done) return
          if (outcome === 'resigned') return open()
          const detail = 'The wallet stream was refused, though the session reads fine: try again later.'
          fail(
            clientProblem('STREAM_UNAVAILABLE', detail, {
              status: event.code ?? 0,
              requestId: '',
              method: 'followMyOrders',
            }) as MethodProblem<'followMyOrders'>,
          )
        },
        (err: MethodProblem<'followMyOrders'>) => fail(err),
      )
    })
  }

  function close() {
    done = true
    source?.close()
    source = undefined
  }

  open()
  return { close }
}
