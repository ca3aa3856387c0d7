// A raw TCP client for the answers no HTTP client library would provoke: malformed request lines,
// oversized heads, requests sent a byte at a time. Reads until the server closes the connection.
import { connect, type Socket } from 'node:net'

export interface RawAnswer {
  statusCode: number
  headers: Record<string, string>
  body: string
  /** Real ms from connecting until the server closed the connection. */
  closedAfterMs: number
}

export interface RawConnection {
  socket: Socket
  /** Resolves once the server has closed the connection, with what it wrote. */
  closed: Promise<RawAnswer>
}

export function parseAnswer(text: string, closedAfterMs: number): RawAnswer {
  const split = text.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = text.slice(0, split === -1 ? text.length : split).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return {
    statusCode: Number(statusLine.split(' ')[1]),
    headers,
    body: split === -1 ? '' : text.slice(split + 4),
    closedAfterMs,
  }
}

/** Opens a connection to `url`'s host and port; the caller writes what it likes on `socket`. */
export function rawConnection(url: string): RawConnection {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  const started = Date.now()
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  const closed = new Promise<RawAnswer>((resolve) => {
    socket.on('error', () => undefined)
    socket.on('close', () =>
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), Date.now() - started)),
    )
  })
  return { socket, closed }
}

/** Sends `bytes` at once and waits for the answer and the close. */
export function rawExchange(url: string, bytes: string | Buffer): Promise<RawAnswer> {
  const connection = rawConnection(url)
  connection.socket.write(bytes)
  return connection.closed
}
