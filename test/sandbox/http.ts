// Small HTTP client for the sandbox conformance tests: real sockets (undici), JSON in and out,
// and the Set-Cookie headers split out for the auth tests.
import { request } from 'undici'
import { type CreatedOrder, createdOrderSchema } from '../../src/sandbox/resources.js'

export const TENANT_KEY = 'sandbox-tenant-key'
export const TENANT = { 'x-tenant-api-key': TENANT_KEY }

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  headers?: Record<string, string>
  /** Sent as JSON. */
  json?: unknown
  /** Sent as is (with whatever content-type the headers give). */
  raw?: string
}

export interface CallResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** The parsed body, or undefined when it is not JSON (parse it with a schema to read it). */
  body: unknown
  cookies: string[]
}

export async function call(base: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers }
  let body: string | undefined = opts.raw
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json'
    body = JSON.stringify(opts.json)
  }
  const res = await request(`${base}${path}`, {
    method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  })
  const text = await res.body.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const setCookie = res.headers['set-cookie']
  const cookies = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]
  return { status: res.statusCode, headers: res.headers, text, body: parsed, cookies }
}

/** The `name=value` pair of a Set-Cookie header, ready to send back in a Cookie header. */
export function cookiePair(cookies: string[], name: string): string {
  const found = cookies.find((c) => c.startsWith(`${name}=`))
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(cookies)}`)
  return found.split(';')[0] ?? ''
}

/** A fresh order through the real create route (ETH on Ethereum → SOL by default). */
export async function createOrder(
  base: string,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = TENANT,
): Promise<CreatedOrder> {
  const res = await call(base, '/v1/orders/create', {
    headers,
    json: {
      depositTokenId: 2,
      settleTokenId: 3,
      receivingAddress: 'So11111111111111111111111111111111111111112',
      intendedAmount: 1,
      intendedIsDeposit: true,
      ...fields,
    },
  })
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`)
  return createdOrderSchema.strict().parse(res.body)
}

/**
 * Whether `pending` has settled once a later request to the sandbox has been answered: whatever a
 * timer sent before that round trip has arrived by then, so "not yet" is bounded by an event, not by
 * a stretch of time. The request is a control route's, which no fault or request log touches.
 */
export async function settledBefore(base: string, pending: Promise<unknown>): Promise<boolean> {
  let settled = false
  const mark = () => {
    settled = true
  }
  pending.then(mark, mark)
  const res = await call(base, '/__sandbox/streams')
  if (res.status !== 200) throw new Error(`the round trip failed: ${res.status} ${res.text}`)
  return settled
}
