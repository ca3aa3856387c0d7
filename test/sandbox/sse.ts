// Reads an SSE response byte for byte, so tests can assert the exact framing (the initial empty
// line, field order) and observe when the server ends the stream.
import http from 'node:http'

export interface RawStream {
  status: number
  headers: http.IncomingHttpHeaders
  /** Everything received so far. */
  text(): string
  /** Resolves when the received text satisfies the predicate. */
  until(predicate: (text: string) => boolean, timeoutMs?: number): Promise<string>
  /** Resolves when the server ends the response. */
  ended: Promise<void>
  close(): void
}

export function openRawStream(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers, agent: false }, (res) => {
      let received = ''
      const waiters = new Set<() => void>()
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        received += chunk
        for (const wake of waiters) wake()
      })
      const ended = new Promise<void>((done) => res.on('close', () => done()))
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => received,
        ended,
        until(predicate, timeoutMs = 2000) {
          return new Promise((done, fail) => {
            const check = () => {
              if (!predicate(received)) return
              waiters.delete(check)
              clearTimeout(timer)
              done(received)
            }
            const timer = setTimeout(() => {
              waiters.delete(check)
              fail(new Error(`timed out waiting; received so far: ${JSON.stringify(received)}`))
            }, timeoutMs)
            waiters.add(check)
            check()
          })
        },
        close: () => req.destroy(),
      })
    })
    req.on('error', reject)
  })
}

/** Splits a stream's text into its events (blocks separated by a blank line), skipping empty ones. */
export function events(text: string): Record<string, string>[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').filter((line) => line !== ''))
    .filter((lines) => lines.length > 0)
    .map((lines) =>
      Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      ),
    )
}
