// A pino destination that keeps every line, so tests can read what the gateway logged.
import { Writable } from 'node:stream'

export interface LogSink {
  stream: Writable
  /** Every line so far, parsed. */
  lines(): Array<Record<string, unknown>>
  /** Every line so far, raw: for "this secret never appears" checks. */
  text(): string
}

export function logSink(): LogSink {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(chunk.toString())
      done()
    },
  })
  return {
    stream,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  }
}
