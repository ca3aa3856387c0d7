// One webhook attempt: a POST over the channel's own undici agent, within WEBHOOK_TIMEOUT_MS, never
// following a redirect. A 2xx delivers, a 410 says the URL is gone, anything else (3xx, 4xx, 5xx, a
// timeout, a refused or reset connection) is tried again, after the answer's Retry-After when longer.
import { Agent, request } from 'undici'
import type { Clock } from '../clock.js'
import type { AttemptOutcome, Delivery } from '../deliveries/types.js'
import type { WebhookSigner } from './signature.js'

export interface SenderOptions {
  timeoutMs: number
  clock: Clock
  signer: WebhookSigner
  userAgent: string
}

/** The most of an answer's body read (and dropped) before the connection is reused or closed. */
const MAX_ANSWER_BYTES = 16 * 1024

export function webhookSender(options: SenderOptions) {
  const agent = new Agent({ connect: { timeout: options.timeoutMs } })
  const send = async (delivery: Delivery): Promise<AttemptOutcome> => {
    const headers = {
      ...options.signer.headers(delivery.eventId, options.clock.now(), delivery.payload),
      'user-agent': options.userAgent,
    }
    try {
      const res = await request(delivery.target, {
        method: 'POST',
        headers,
        body: delivery.payload,
        dispatcher: agent,
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      await res.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => {})
      const answer = `HTTP ${res.statusCode}`
      if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'delivered', answer }
      if (res.statusCode === 410) return { kind: 'gone', answer }
      const retryAfterMs = retryAfter(res.headers['retry-after'], options.clock.now())
      return { kind: 'retry', answer, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
    } catch (err) {
      return { kind: 'retry', answer: failureOf(err, options.timeoutMs) }
    }
  }
  return { send, close: () => agent.close() }
}

/** Retry-After as seconds or an HTTP date, in ms from now. */
function retryAfter(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** What the list of deliveries shows for an attempt that got no answer: never the URL or a header. */
function failureOf(err: unknown, timeoutMs: number): string {
  const { name, code } = err as { name?: string; code?: string }
  if (name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT') return `no answer within ${timeoutMs} ms`
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset'
  return `request failed (${code ?? name ?? 'unknown error'})`
}
