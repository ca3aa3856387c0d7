// Reading server-sent events, the two ways the tests need: `follow` as a browser does, with a standard
// EventSource client (the `eventsource` package) that reconnects by itself; and `readRaw`, the bytes as
// sent over one connection (a socket of its own, or a fetch body), for what EventSource hides: the
// framing, ids and `retry:` advice, heartbeat comments, and the moment the server ends the response.
import http from 'node:http'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { EventSource, type FetchLike } from 'eventsource'
import type { Test } from 'tap'

/** The gateway's status-update event, as the upstream names it. */
export const STATUS_EVENT = 'orders:status-update'
/** What a status stream carries: the order's snapshot first, then its status updates. */
export const STATUS_EVENTS = ['snapshot', STATUS_EVENT]

/** A status event's data (a snapshot's is the order itself): the upstream's fields and the order re-read. */
export type StatusData = Record<string, unknown> & { status?: string; order?: Record<string, unknown> }

export interface Received<D = Record<string, unknown>> {
  type: string
  id: string
  data: D
}

export interface Follower<D = Record<string, unknown>> {
  es: EventSource
  /** Every event of the followed types, in order, its data parsed. */
  events: Received<D>[]
  opens: number
  errors: Array<{ code: number | undefined; message: string | undefined }>
  /** The events of one type. */
  of(type: string): Received<D>[]
  /** Resolves once `pred` holds, checked after every event, open and error. */
  until(what: string, pred: () => boolean, ms?: number): Promise<void>
  close(): void
}

export interface FollowOptions {
  /** The event types to record (an EventSource delivers a named event only to its listeners). */
  events: string[]
  /** Sent on every (re)connection, as a proxy would add them. */
  headers?: Record<string, string>
  /** Makes the connections (a balancer that sends each to an instance of its choice). */
  fetch?: FetchLike
}

/** Follows a stream with a standard EventSource client, recording every event, open and error in order. */
export function follow<D = Record<string, unknown>>(
  t: Test,
  url: string,
  options: FollowOptions,
): Follower<D> {
  const connect: FetchLike = options.fetch ?? fetch
  const fetchWith: FetchLike = (input, init) =>
    connect(input, { ...init, headers: { ...init.headers, ...options.headers } })
  const es = new EventSource(url, { fetch: fetchWith })
  const { wake, settle } = checkpoints()
  const f: Follower<D> = {
    es,
    events: [],
    opens: 0,
    errors: [],
    of: (type) => f.events.filter((e) => e.type === type),
    until: (what, pred, ms = 10_000) =>
      settle(
        () => (pred() ? { value: undefined } : undefined),
        () => {
          const brief = f.events.map((e) => `${e.type}#${e.id}:${JSON.stringify(e.data).slice(0, 80)}`)
          return `timed out waiting for ${what}; events so far: ${JSON.stringify(brief)}`
        },
        ms,
      ),
    close: () => es.close(),
  }
  for (const type of options.events) {
    es.addEventListener(type, (e) => {
      f.events.push({ type, id: e.lastEventId, data: JSON.parse(e.data) as D })
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

export interface RawStream {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** Everything received so far, as sent. */
  text(): string
  /**
   * Resolves with the text once `pred` holds, checked as each chunk arrives and when the response
   * ends (`ended` true); fails if it ends without `pred` holding, or after `ms`.
   */
  until(what: string, pred: (text: string, ended: boolean) => boolean, ms?: number): Promise<string>
  /** The first frame, up to and including the blank line that ends it. */
  first(): Promise<string>
  /** Everything received, and performance.now(), once the response is over (ended, cut or closed here). */
  ended: Promise<{ text: string; at: number }>
  close(): void
}

/**
 * Reads a stream raw: from a URL over a socket of its own (resolving once the head arrived), or from
 * a fetch answer's body.
 */
export async function readRaw(
  source: string | Response,
  headers: Record<string, string> = {},
): Promise<RawStream> {
  if (typeof source !== 'string') {
    const reader = source.body!.pipeThrough(new TextDecoderStream()).getReader()
    const raw = rawStream(source.status, Object.fromEntries(source.headers), () => {
      reader.cancel().catch(() => {})
    })
    void (async () => {
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) raw.received(read.value)
      } catch {
        // A body cut short ends the stream like any other end.
      }
      raw.over()
    })()
    return raw.stream
  }
  return new Promise((resolve, reject) => {
    const req = http.get(source, { headers, agent: false }, (res) => {
      const raw = rawStream(res.statusCode ?? 0, res.headers, () => req.destroy())
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => raw.received(chunk))
      res.on('close', () => raw.over())
      resolve(raw.stream)
    })
    req.on('error', reject)
  })
}

/** What a raw reader is fed (its chunks, then its end), and the stream it gives the test. */
function rawStream(status: number, headers: RawStream['headers'], close: () => void) {
  let received = ''
  let isOver = false
  const { wake, settle } = checkpoints()
  let over: (end: { text: string; at: number }) => void = () => {}
  const ended = new Promise<{ text: string; at: number }>((resolve) => {
    over = resolve
  })
  const stream: RawStream = {
    status,
    headers,
    text: () => received,
    ended,
    close,
    until: (what, pred, ms = 10_000) =>
      settle<string>(
        () => {
          if (pred(received, isOver)) return { value: received }
          if (isOver)
            return { error: `the stream ended before ${what}; received: ${JSON.stringify(received)}` }
          return undefined
        },
        () => `timed out waiting for ${what}; received so far: ${JSON.stringify(received)}`,
        ms,
      ),
    first: () =>
      stream
        .until('the first event', (text) => text.includes('\n\n'))
        .then((text) => text.slice(0, text.indexOf('\n\n') + 2)),
  }
  return {
    stream,
    received(chunk: string) {
      received += chunk
      wake()
    },
    over() {
      isOver = true
      over({ text: received, at: performance.now() })
      wake()
    },
  }
}

/**
 * Waits that are checked whenever something arrives (`wake`), not on a timer: `check` says how a wait
 * settles, or undefined to go on waiting; after `ms` it fails with `timedOut`'s message.
 */
function checkpoints() {
  const waiters = new Set<() => void>()
  return {
    wake() {
      for (const w of waiters) w()
    },
    settle<T>(
      check: () => { value: T } | { error: string } | undefined,
      timedOut: () => string,
      ms: number,
    ): Promise<T> {
      return new Promise((resolve, reject) => {
        const done = () => {
          waiters.delete(poll)
          clearTimeout(timer)
        }
        const poll = () => {
          const outcome = check()
          if (outcome === undefined) return
          done()
          if ('value' in outcome) resolve(outcome.value)
          else reject(new Error(outcome.error))
        }
        const timer = setTimeout(() => {
          waiters.delete(poll)
          reject(new Error(timedOut()))
        }, ms)
        waiters.add(poll)
        poll()
      })
    },
  }
}

/** How many heartbeat comments a stream's text holds. */
export const heartbeats = (text: string) => (text.match(/^: heartbeat\n\n/gm) ?? []).length

/** The events in a stream's text, parsed as an EventSource would (comments and `retry:` are not events). */
export function events(text: string): EventSourceMessage[] {
  const parsed: EventSourceMessage[] = []
  createParser({ onEvent: (e) => parsed.push(e) }).feed(text)
  return parsed
}
