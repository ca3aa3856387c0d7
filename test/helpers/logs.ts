// A pino destination that keeps every line, so tests can read what the gateway logged.
import { Writable } from 'node:stream'

export interface LogSink {
  stream: Writable
  /** Every line so far, parsed. */
  lines(): Array<Record<string, unknown>>
  /** Every line so far, raw: for "this secret never appears" checks. */
  text(): string
}

/** `watch` sees each line as it is written (pino writes one line per write), while its test runs. */
export function logSink(watch?: (line: string) => void): LogSink {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      const text = chunk.toString()
      chunks.push(text)
      watch?.(text)
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
