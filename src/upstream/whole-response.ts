// One upstream answer read whole, through undici's dispatch handler: the body's chunks go straight
// into an array. undici's request API builds a Readable stream and a body mixin for every call,
// which cost more than the rest of the call's own work; every caller here reads the body whole anyway.
import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'

export interface WholeResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** `onHead` hears the status as soon as the head arrives, before the body (which may still fail). */
export function requestWhole(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  onHead?: (status: number) => void,
): Promise<WholeResponse> {
  return new Promise((resolve, reject) => {
    let status = 0
    let headers: IncomingHttpHeaders = {}
    const chunks: Buffer[] = []
    dispatcher.dispatch(options, {
      // Its presence selects undici's current handler interface; nothing to do at the start.
      onRequestStart() {},
      // Called again after a 1xx: the final status and headers win.
      onResponseStart(_controller, statusCode, responseHeaders) {
        status = statusCode
        headers = responseHeaders
        onHead?.(statusCode)
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk)
      },
      onResponseEnd() {
        resolve({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) })
      },
      onResponseError(_controller, error) {
        reject(error)
      },
    })
  })
}
