// The client's one way to call the gateway: URL under the API prefix, JSON in and out, the session
// (cookie, or Bearer token for clients without cookies), and every failure as a GatewayProblem.
import { type ClientMethod, clientProblem, GatewayProblem, problemOf } from './problem.js'

export type Credentials = 'include' | 'same-origin' | 'omit'
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

export interface HttpOptions {
  baseUrl: string
  apiPrefix: string
  fetch: FetchLike
  credentials: Credentials
  /** Bearer mode: ask for the session token at sign-in and send it on every call. */
  bearer: boolean
  sessionToken: string | undefined
}

export interface Call {
  /** The client method making the call, named on its rejections. */
  operation: ClientMethod
  method?: 'GET' | 'POST' | 'DELETE'
  /** Below the API prefix, such as `/v1/tokens`. */
  path: string
  query?: object
  body?: unknown
  headers?: Record<string, string>
}

/**
 * `?name=value&...` of the defined values, written by hand: React Native's URLSearchParams does not
 * implement `set` or `append` in every release (they throw), while encodeURIComponent is everywhere.
 */
function queryString(query: object): string {
  const pairs = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err))

export class Http {
  sessionToken: string | undefined

  constructor(private readonly options: HttpOptions) {
    this.sessionToken = options.sessionToken
  }

  get bearer(): boolean {
    return this.options.bearer
  }

  /** The absolute URL of a route; query values that are undefined are left out. */
  url(path: string, query: object = {}): string {
    return `${this.options.baseUrl}${this.options.apiPrefix}${path}${queryString(query)}`
  }

  /** The success body parsed (undefined for 204), or a rejection with a GatewayProblem. */
  async send<T>(call: Call): Promise<T> {
    const headers: Record<string, string> = { ...call.headers }
    if (call.body !== undefined) headers['content-type'] = 'application/json'
    if (this.sessionToken !== undefined) headers.authorization = `Bearer ${this.sessionToken}`
    let res: Response
    let text: string
    try {
      res = await this.options.fetch(this.url(call.path, call.query), {
        method: call.method ?? 'GET',
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        credentials: this.options.credentials,
      })
      if (!res.ok) throw await problemOf(res, call.operation)
      text = await res.text()
    } catch (err) {
      if (err instanceof GatewayProblem) throw err
      throw clientProblem(
        'NETWORK_ERROR',
        `The gateway could not be reached: ${describe(err)}`,
        { status: 0, requestId: '', method: call.operation },
        err,
      )
    }
    if (res.status === 204) return undefined as T
    try {
      return JSON.parse(text) as T
    } catch (err) {
      throw clientProblem(
        'UNEXPECTED_RESPONSE',
        `The answer to ${call.path} is not JSON (a proxy in between?).`,
        { status: res.status, requestId: res.headers.get('x-request-id') ?? '', method: call.operation },
        err,
      )
    }
  }
}
