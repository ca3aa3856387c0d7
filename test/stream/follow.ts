// Follows an order's status stream the way a browser does: with a standard EventSource client
// (the `eventsource` package), recording every event, open and error in order.
import { EventSource, type FetchLike } from 'eventsource'
import type { Test } from 'tap'

export interface Received {
  type: string
  id: string
  data: Record<string, unknown> & { status?: string; order?: Record<string, unknown> }
}

export interface Follower {
  es: EventSource
  events: Received[]
  opens: number
  errors: Array<{ code: number | undefined; message: string | undefined }>
  /** Status-update events only. */
  updates(): Received[]
  /** Resolves once `pred` holds, checked after every event, open and error. */
  until(what: string, pred: () => boolean, ms?: number): Promise<void>
  close(): void
}

export const STATUS_EVENT = 'orders:status-update'

/** Opens a follower; `headers` go on every (re)connection, as a proxy would add them. */
export function follow(t: Test, url: string, headers: Record<string, string> = {}): Follower {
  const fetchWith: FetchLike = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } })
  const es = new EventSource(url, { fetch: fetchWith })
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const w of waiters) w()
  }
  const f: Follower = {
    es,
    events: [],
    opens: 0,
    errors: [],
    updates: () => f.events.filter((e) => e.type === STATUS_EVENT),
    until(what, pred, ms = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pred()) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(`timed out waiting for ${what}; events so far: ${JSON.stringify(f.events.map(brief))}`),
          )
        }, ms)
        waiters.add(check)
        check()
      })
    },
    close: () => es.close(),
  }
  for (const type of ['snapshot', STATUS_EVENT]) {
    es.addEventListener(type, (e) => {
      f.events.push({ type, id: e.lastEventId, data: JSON.parse(e.data) })
      wake()
    })
  }
  es.addEventListener('open', () => {
    f.opens++
    wake()
  })
  es.addEventListener('error', (e) => {
    f.errors.push({ code: e.code, message: e.message })
    wake()
  })
  t.teardown(() => es.close())
  return f
}

const brief = (e: Received) => `${e.type}#${e.id}:${e.data.status}`

export const statusOf = (e: Received | undefined) => (e?.type === 'snapshot' ? e.data.status : e?.data.status)
