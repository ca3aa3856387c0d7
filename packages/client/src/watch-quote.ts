// watchQuote: a live quote through an EventSource (the browser's, or any class with its interface),
// typed: every `quote` (the price, and when the gateway priced it) and every `problem` (a refresh that
// failed: the gateway goes on trying, and a fresh quote follows). In a browser page the stream is
// closed while the page is hidden and opened again, with a fresh quote at once, when it is shown: a
// price nobody sees costs the tenant key's quota for nothing, and a hidden tab is a forgotten one.
import type { EventSourceConstructor, EventSourceLike } from './follow.js'
import { clientProblem, GatewayProblem, type MethodProblem, type ProblemDocument } from './problem.js'
import type { LiveQuote, StreamEvents } from './types.js'

// The event names the document declares for this stream: `satisfies` fails the build when they change.
type Events = StreamEvents<'watchQuote'>
const QUOTE = 'quote' satisfies keyof Events
const PROBLEM = 'problem' satisfies keyof Events
const END = 'end' satisfies keyof Events
/** EventSource.CLOSED: the source gave up and will not reconnect. */
const CLOSED = 2

export interface QuoteHandlers {
  /** The quote: at once, then whenever the price changes, and at least every half minute or so. */
  onQuote?(quote: LiveQuote): void
  /**
   * A refresh failed (the stream goes on; a fresh quote follows when one can be had), or the stream
   * was refused (the pair, the amount, limits: then it is closed). `retryable` says whether to retry.
   */
  onProblem?(problem: MethodProblem<'watchQuote'>): void
  /** The gateway ended the stream after its longest life; call watchQuote again to go on. */
  onEnd?(): void
}

export interface Watching {
  /** Stops watching; no handler is called afterwards. */
  close(): void
}

/** What a page's `document` offers to tell whether it is shown. */
export interface PageVisibility {
  readonly visibilityState: string
  addEventListener(type: 'visibilitychange', listener: () => void): void
  removeEventListener(type: 'visibilitychange', listener: () => void): void
}

export interface WatchDeps {
  url: string
  EventSource: EventSourceConstructor
  withCredentials: boolean
  /** One quote, asked when the stream is refused: its problem says why. */
  readQuote(): Promise<unknown>
  /** The page whose visibility pauses the stream; absent outside a browser page. */
  page?: PageVisibility
}

export function watchQuote(deps: WatchDeps, handlers: QuoteHandlers): Watching {
  let source: EventSourceLike | undefined
  let done = false
  const settle = (then: () => void) => {
    if (done) return
    stop()
    then()
  }
  const fail = (problem: MethodProblem<'watchQuote'>) => settle(() => handlers.onProblem?.(problem))
  const parse = <T>(data: unknown): T | undefined => {
    try {
      return JSON.parse(String(data)) as T
    } catch (err) {
      const detail = 'The live quote stream sent an event that is not JSON.'
      fail(
        clientProblem(
          'UNEXPECTED_RESPONSE',
          detail,
          { status: 200, requestId: '', method: 'watchQuote' },
          err,
        ) as MethodProblem<'watchQuote'>,
      )
      return undefined
    }
  }

  function open() {
    const current = new deps.EventSource(deps.url, { withCredentials: deps.withCredentials })
    source = current
    const live = () => !done && source === current
    current.addEventListener(QUOTE, (event) => {
      if (!live()) return
      const quote = parse<LiveQuote>(event.data)
      if (quote) handlers.onQuote?.(quote)
    })
    current.addEventListener(PROBLEM, (event) => {
      if (!live()) return
      const document = parse<ProblemDocument>(event.data)
      if (document)
        handlers.onProblem?.(
          new GatewayProblem(document, { method: 'watchQuote' }) as MethodProblem<'watchQuote'>,
        )
    })
    current.addEventListener(END, () => {
      if (live()) settle(() => handlers.onEnd?.())
    })
    current.addEventListener('error', (event) => {
      // While CONNECTING the source retries by itself, and the next stream starts with a fresh quote.
      if (!live() || current.readyState !== CLOSED) return
      // It gave up: a refusal whose problem document EventSource cannot show. One quote says why.
      source = undefined
      deps.readQuote().then(
        () => {
          const detail =
            'The live quote stream was refused, though the quote itself answers: try again later.'
          fail(
            clientProblem('STREAM_UNAVAILABLE', detail, {
              status: event.code ?? 0,
              requestId: '',
              method: 'watchQuote',
            }) as MethodProblem<'watchQuote'>,
          )
        },
        (err: MethodProblem<'watchQuote'>) => fail(err),
      )
    })
  }

  const onVisibility = () => {
    if (done) return
    if (deps.page?.visibilityState === 'hidden') {
      source?.close()
      source = undefined
    } else if (!source) open()
  }
  function stop() {
    done = true
    source?.close()
    source = undefined
    deps.page?.removeEventListener('visibilitychange', onVisibility)
  }

  deps.page?.addEventListener('visibilitychange', onVisibility)
  if (deps.page?.visibilityState !== 'hidden') open()
  return { close: stop }
}
