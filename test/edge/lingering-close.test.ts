// A client still sending a body the gateway refuses (over the limit, or answered early for any other
// reason) receives the answer: the gateway reads and discards the rest, within its bounds, before it
// closes, so the close cannot reset the connection under an answer the client has not read yet.
// Raw sockets writing at a paced rate: a slow link, and many uploads at once.
import { connect } from 'node:net'
import { setTimeout as pause } from 'node:timers/promises'
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { roomyLimits } from '../helpers/limits.js'
import { assertProblem } from '../helpers/problem.js'
import { LINGER_MAX_MS } from '../../src/edge/lingering-close.js'
import { type RawAnswer, parseAnswer, rawConnection } from './raw-http.js'

const LIMIT = 64 * 1024
const CHUNK = 16 * 1024
/** How far past its bound a connection may still be open on a loaded machine. */
const CLOSE_MARGIN_MS = 2_000

interface Upload {
  /** Body bytes in all (several times the limit). */
  size: number
  /** Between two chunks: the link's pace. */
  pauseMs: number
  chunked?: boolean
  /** Request headers beyond the framing ones. */
  headers?: string
}

interface Uploaded {
  answer: RawAnswer
  /** What writing or reading failed with (EPIPE, ECONNRESET), if anything. */
  error?: string
}

/** Sends a body in paced chunks while reading whatever the server answers, until it closes. */
async function upload(url: string, opts: Upload): Promise<Uploaded> {
  const { hostname, port } = new URL(url)
  // As an uploader that does not watch for the server's FIN: it writes its body to the end.
  const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true })
  const chunks: Buffer[] = []
  let error: string | undefined
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  socket.on('error', (err: NodeJS.ErrnoException) => {
    error ??= err.code ?? err.message
  })
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  const started = Date.now()
  const framing = opts.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${opts.size}`
  socket.write(
    `POST /api/v1/orders/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${framing}\r\n${opts.headers ?? ''}\r\n`,
  )
  const write = (bytes: string | Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve()
      socket.write(bytes, () => resolve())
    })
  for (let sent = 0; sent < opts.size && !socket.destroyed; sent += CHUNK) {
    const body = Buffer.alloc(Math.min(CHUNK, opts.size - sent), sent === 0 ? '{' : 'x')
    await write(
      opts.chunked
        ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')])
        : body,
    )
    await pause(opts.pauseMs)
  }
  if (opts.chunked) await write('0\r\n\r\n')
  // Done sending: a connection the server would keep alive closes now.
  if (!socket.destroyed) socket.end()
  await closed
  return { answer: parseAnswer(Buffer.concat(chunks).toString('latin1'), Date.now() - started), error }
}

t.test('a body several times the limit, sent over a slow link, gets its 413 every time', async (t) => {
  const { url } = await startGateway(t, { listen: true, env: { RATE_LIMITS: roomyLimits() } })
  for (const chunked of [false, true]) {
    for (let i = 0; i < 3; i++) {
      const { answer, error } = await upload(url, { size: 6 * LIMIT, pauseMs: 20, chunked })
      const how = chunked ? 'chunked' : 'with a length'
      t.equal(error, undefined, `${how} #${i}: no write or read error`)
      assertProblem(t, answer, 'PAYLOAD_TOO_LARGE')
    }
  }
})

t.test('a client that asks to close after its request still reads its 413', async (t) => {
  const { url } = await startGateway(t, { listen: true, env: { RATE_LIMITS: roomyLimits() } })
  const { answer, error } = await upload(url, {
    size: 6 * LIMIT,
    pauseMs: 10,
    headers: 'Connection: close\r\n',
  })
  t.equal(error, undefined, 'no write or read error')
  assertProblem(t, answer, 'PAYLOAD_TOO_LARGE')
})

t.test('50 uploads over the limit at once each read their 413', async (t) => {
  const { url } = await startGateway(t, { listen: true, env: { RATE_LIMITS: roomyLimits() } })
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => upload(url, { size: 4 * LIMIT, pauseMs: 5, chunked: i % 2 === 1 })),
  )
  t.same(
    results
      .filter((r) => r.error !== undefined || r.answer.statusCode !== 413)
      .map((r) => r.error ?? r.answer.statusCode),
    [],
    'every upload read a 413, none a reset or a broken pipe',
  )
  for (const { answer } of results.slice(0, 2)) assertProblem(t, answer, 'PAYLOAD_TOO_LARGE')
})

t.test(
  'a client that stops sending mid-body reads its 413 at once and is cut at the time bound',
  async (t) => {
    const { url } = await startGateway(t, { listen: true, env: { RATE_LIMITS: roomyLimits() } })
    const connection = rawConnection(url)
    const answered = new Promise<void>((resolve) => connection.socket.once('data', () => resolve()))
    connection.socket.write(
      `POST /api/v1/orders/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${6 * LIMIT}\r\n\r\n{`,
    )
    await answered
    const answer = await connection.closed
    assertProblem(t, answer, 'PAYLOAD_TOO_LARGE')
    t.ok(answer.closedAfterMs >= LINGER_MAX_MS - 100, 'the rest of the body was waited for')
    t.ok(answer.closedAfterMs <= LINGER_MAX_MS + CLOSE_MARGIN_MS, 'then the connection was cut')
  },
)
