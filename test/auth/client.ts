// Test helpers for the auth capability: a movable clock, and a small browser-like HTTP client that
// keeps the session cookie and sends an Origin (test/helpers/sign-in.ts signs it in).
import { parseSetCookie } from 'set-cookie-parser'
import type { Test } from 'tap'
import { fakeClock } from '../helpers/clock.js'
import { type GatewayOptions, startGateway } from '../helpers/gateway.js'

export const PUBLIC_ORIGIN = 'http://localhost:3000'
export const SITE = 'localhost:3000'

export interface Answer {
  status: number
  headers: Headers
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read field by field
  json: any
  setCookies: string[]
}

export interface RequestOptions {
  body?: unknown
  headers?: Record<string, string>
  /** Overrides the client's Origin for this request; null sends none. */
  origin?: string | null
}

/** A browser-like client over real sockets: keeps cookies it is given, sends its Origin. */
export class Client {
  readonly cookies = new Map<string, string>()
  /** Every header and body this client received, for "no secret ever leaks" checks. */
  readonly received: string[] = []

  constructor(
    readonly base: string,
    /** null: a client that sends no Origin (a server, a mobile app, curl). */
    readonly origin: string | null = PUBLIC_ORIGIN,
  ) {}

  get(path: string, opts: RequestOptions = {}) {
    return this.request('GET', path, opts)
  }

  post(path: string, opts: RequestOptions = {}) {
    return this.request('POST', path, opts)
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers }
    const origin = opts.origin === undefined ? this.origin : opts.origin
    if (origin) headers.origin = origin
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ')
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(this.base + path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    })
    const text = await res.text()
    const setCookies = res.headers.getSetCookie()
    for (const cookie of parseSetCookie(setCookies, { decodeValues: false })) {
      const gone =
        cookie.value === '' ||
        cookie.maxAge === 0 ||
        (cookie.expires && cookie.expires.getTime() < Date.now())
      if (gone) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
    this.received.push(JSON.stringify([...res.headers]), text)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: res.status, headers: res.headers, text, json, setCookies }
  }
}

/** A listening gateway (real sockets, for cookies) with a movable clock shared with its sandbox. */
export async function startAuthGateway(t: Test, opts: GatewayOptions = {}) {
  const clock = fakeClock({ running: true })
  const gw = await startGateway(t, {
    listen: true,
    ...opts,
    env: { PUBLIC_ORIGIN, ...opts.env },
    deps: { clock, ...opts.deps },
  })
  /** Moves the gateway's and the sandbox's clocks together, as real time would. */
  const advance = (ms: number) => {
    clock.advance(ms)
    gw.sandbox.control.advanceTime(ms)
  }
  return {
    ...gw,
    clock,
    advance,
    client: (origin: string | null = PUBLIC_ORIGIN) => new Client(gw.url, origin),
  }
}
