// Watches a live quote the way a browser does: with a standard EventSource client (the `eventsource`
// package), recording every event, open and error in order.
import { EventSource, type FetchLike } from 'eventsource'
import type { Test } from 'tap'

export interface QuoteEvent {
  type: 'quote' | 'problem'
  data: Record<string, unknown>
}

export interface Watcher {
  es: EventSource
  events: QuoteEvent[]
  opens: number
  errors: number
  quotes(): QuoteEvent[]
  problems(): QuoteEvent[]
  /** Resolves once `pred` holds, checked after every event, open and error. */
  until(what: string, pred: () => boolean, ms?: number): Promise<void>
  close(): void
}

export function watch(t: Test, url: string, headers: Record<string, string> = {}): Watcher {
  const fetchWith: FetchLike = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } })
  const es = new EventSource(url, { fetch: fetchWith })
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const w of waiters) w()
  }
  const w: Watcher = {
    es,
    events: [],
    opens: 0,
    errors: 0,
    quotes: () => w.events.filter((e) => e.type === 'quote'),
    problems: () => w.events.filter((e) => e.type === 'problem'),
    until(what, pred, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pred()) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`timed out waiting for ${what}; events so far: ${JSON.stringify(w.events)}`))
        }, ms)
        waiters.add(check)
        check()
      })
    },
    close: () => es.close(),
  }
  for (const type of ['quote', 'problem'] as const) {
    es.addEventListener(type, (e) => {
      w.events.push({ type, data: JSON.parse(e.data) as Record<string, unknown> })
      wake()
    })
  }
  es.addEventListener('open', () => {
    w.opens++
    wake()
  })
  es.addEventListener('error', () => {
    w.errors++
    wake()
  })
  t.teardown(() => es.close())
  return w
}
