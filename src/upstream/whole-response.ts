// One upstream answer read whole, through undici's dispatch handler: the body's chunks go straight
// into an array. undici's request API builds a Readable stream and a body mixin for every call,
// which cost more than the rest of the call's own work; every caller here reads the body whole anyway.
// undici's body timeout is the longest silence between two chunks, so a body trickled in short gaps
// would outlive any deadline: each chunk is also checked against the call's deadline (no timer).
import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'
import type { Clock } from '../clock.js'

export interface WholeResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** One call's handler: a class, so a call costs one object rather than a closure per callback. */
class WholeResponseHandler implements Dispatcher.DispatchHandler {
  private status = 0
  private headers: IncomingHttpHeaders = {}
  private readonly chunks: Buffer[] = []

  constructor(
    private readonly resolve: (response: WholeResponse) => void,
    private readonly reject: (error: Error) => void,
    private readonly onHead: ((status: number) => void) | undefined,
    /** Epoch ms on `clock` by which the whole answer must have arrived. */
    private readonly deadline: number,
    private readonly clock: Clock,
  ) {}

  // Its presence selects undici's current handler interface; nothing to do at the start.
  onRequestStart(): void {}

  // Called again after a 1xx: the final status and headers win.
  onResponseStart(_controller: unknown, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode
    this.headers = headers
    this.onHead?.(statusCode)
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.clock.now() >= this.deadline) {
      controller.abort(new DOMException('The answer did not arrive before the deadline', 'TimeoutError'))
      return
    }
    this.chunks.push(chunk)
  }

  onResponseEnd(): void {
    const { chunks } = this
    this.resolve({
      status: this.status,
      headers: this.headers,
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    })
  }

  onResponseError(_controller: unknown, error: Error): void {
    this.reject(error)
  }
}

/**
 * `deadline` (epoch ms on `clock`) bounds the whole answer; `onHead` hears the status as soon as the head
 * arrives, before the body (which may still fail).
 */
export function requestWhole(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  deadline: number,
  clock: Clock,
  onHead?: (status: number) => void,
): Promise<WholeResponse> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new WholeResponseHandler(resolve, reject, onHead, deadline, clock))
  })
}
