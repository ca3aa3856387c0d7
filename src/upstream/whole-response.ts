// One upstream answer read whole, through undici's dispatch handler: the body's chunks go straight
// into an array. undici's request API builds a Readable stream and a body mixin for every call,
// which cost more than the rest of the call's own work; every caller here reads the body whole anyway.
// A call can be given a hard time limit: undici's own timeouts run on a coarse shared clock (up to
// half a second late, and restarted for the body), so they cannot keep a client request's deadline.
// That limit stays on the process's timers, not the app's clock: it guards a real socket on every
// call's path, where nothing is added per request.
import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'

export interface WholeResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** The call ran out of its time limit; classified as a timeout (upstream/classify.ts). */
export class CallTimeLimitError extends Error {
  override name = 'CallTimeLimitError'
  readonly code = 'GATEWAY_CALL_TIME_LIMIT'
}

interface Abortable {
  abort(reason: Error): void
}

/** One call's handler: a class, so a call costs one object rather than a closure per callback. */
class WholeResponseHandler implements Dispatcher.DispatchHandler {
  private status = 0
  private headers: IncomingHttpHeaders = {}
  private readonly chunks: Buffer[] = []
  private controller: Abortable | undefined
  private timer: NodeJS.Timeout | undefined
  private expired: Error | undefined

  constructor(
    private readonly resolve: (response: WholeResponse) => void,
    private readonly reject: (error: Error) => void,
    private readonly onHead: ((status: number) => void) | undefined,
    timeLimitMs: number | undefined,
  ) {
    if (timeLimitMs !== undefined) this.timer = setTimeout(() => this.expire(), timeLimitMs)
  }

  /** Fails the call at once; the request is aborted now, or as soon as undici starts it. */
  private expire(): void {
    this.expired = new CallTimeLimitError('the upstream call ran out of time')
    this.reject(this.expired)
    this.controller?.abort(this.expired)
  }

  onRequestStart(controller: Abortable): void {
    this.controller = controller
    if (this.expired) controller.abort(this.expired)
  }

  // Called again after a 1xx: the final status and headers win.
  onResponseStart(_controller: unknown, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode
    this.headers = headers
    this.onHead?.(statusCode)
  }

  onResponseData(_controller: unknown, chunk: Buffer): void {
    this.chunks.push(chunk)
  }

  onResponseEnd(): void {
    clearTimeout(this.timer)
    const { chunks } = this
    this.resolve({
      status: this.status,
      headers: this.headers,
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    })
  }

  onResponseError(_controller: unknown, error: Error): void {
    clearTimeout(this.timer)
    this.reject(error)
  }
}

/**
 * `onHead` hears the status as soon as the head arrives, before the body (which may still fail).
 * `timeLimitMs` bounds the whole call, queueing, head and body: past it the call fails at once.
 */
export function requestWhole(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  onHead?: (status: number) => void,
  timeLimitMs?: number,
): Promise<WholeResponse> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new WholeResponseHandler(resolve, reject, onHead, timeLimitMs))
  })
}
