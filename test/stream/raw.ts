// A status stream read raw over its own socket, as bytes arrive: what the server sent first (the
// snapshot and its `retry:` advice), everything it sent, and the moment the server ended it.
import http from 'node:http'

export interface RawStream {
  /** The text up to the end of the first event: the snapshot. */
  first: Promise<string>
  /** Everything sent, once the server ends the response. */
  text: Promise<string>
  /** performance.now() when the response ended. */
  endedAt: Promise<number>
}

export function rawStream(url: string): RawStream {
  let first: (text: string) => void = () => {}
  const firstText = new Promise<string>((resolve) => {
    first = resolve
  })
  let ended: (at: number) => void = () => {}
  const endedAt = new Promise<number>((resolve) => {
    ended = resolve
  })
  const text = new Promise<string>((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let received = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        received += chunk
        if (received.includes('\n\n')) first(received.slice(0, received.indexOf('\n\n') + 2))
      })
      res.on('end', () => {
        ended(performance.now())
        resolve(received)
      })
      res.on('error', reject)
    })
    req.on('error', reject)
  })
  return { first: firstText, text, endedAt }
}
