// A listening gateway for the reliability suites: a short deadline, limits and a breaker out of the
// way (their own tests cover them), a movable clock, and a raw HTTP client that keeps everything it
// received, so a suite can sweep every answer for secrets afterwards.
import { request } from 'undici'
import type { Test } from 'tap'
import type { SandboxOptions } from '../../src/sandbox/app.js'
import { Client } from '../auth/client.js'
import { fakeClock } from '../helpers/clock.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { roomyLimits } from '../helpers/limits.js'

/** UPSTREAM_TIMEOUT_MS in these suites. */
export const DEADLINE_MS = 1_000
/** What an answer may take beyond the deadline on a loaded two-core machine. */
export const MARGIN_MS = 2_000

const UNLIMITED = roomyLimits()

export interface Answer {
  statusCode: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** Wall time from sending to the end of the body. */
  ms: number
}

export interface CallOptions {
  method?: string
  headers?: Record<string, string>
  body?: unknown
}

export interface ReliabilitySetup {
  env?: Record<string, string>
  sandbox?: SandboxOptions
}

export async function reliableGateway(t: Test, setup: ReliabilitySetup = {}) {
  const clock = fakeClock({ running: true })
  const gw = await startGateway(t, {
    listen: true,
    env: {
      PUBLIC_ORIGIN: 'http://localhost:3000',
      UPSTREAM_TIMEOUT_MS: String(DEADLINE_MS),
      RATE_LIMITS: UNLIMITED,
      SSE_RETRY_MS: '100',
      ...setup.env,
    },
    sandbox: setup.sandbox,
    deps: {
      clock,
      upstreamTuning: { breakerThreshold: 1_000_000 },
      statusStreamTuning: { reopenBaseMs: 50, reopenCapMs: 200, pollMs: 100 },
      catalogTuning: { retryBaseMs: 50, retryCapMs: 200 },
    },
  })
  const control = gw.sandbox.control
  const received: string[] = []

  async function call(path: string, opts: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.body !== undefined) headers['content-type'] ??= 'application/json'
    const started = performance.now()
    const res = await request(gw.url + path, {
      method: (opts.method ?? (opts.body === undefined ? 'GET' : 'POST')) as 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    })
    const body = await res.body.text()
    const answer = { statusCode: res.statusCode, headers: res.headers, body, ms: performance.now() - started }
    received.push(JSON.stringify(res.headers), body)
    return answer
  }

  /** A wallet signed in through the gateway in Bearer mode: its session token and its headers. */
  async function signedIn() {
    const client = new Client(gw.url, null)
    const { verify } = await signInThroughGateway(client, newWallet(), '1', { 'x-session-mode': 'token' })
    if (verify.status !== 201) throw new Error(`sign-in failed: ${verify.status} ${verify.text}`)
    received.push(...client.received)
    const sessionToken = verify.json.sessionToken as string
    return { sessionToken, bearer: { authorization: `Bearer ${sessionToken}` } }
  }

  const p = picks(control.tokens())
  return { ...gw, control, clock, call, signedIn, received, p, order: () => orderBody(p) }
}

export type ReliableGateway = Awaited<ReturnType<typeof reliableGateway>>
