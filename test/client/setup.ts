// The typed client against a listening gateway in front of a fresh sandbox: Node's global fetch, the
// `eventsource` package as EventSource, a movable clock, and an EIP-1193 wallet over a viem key.
import { EventSource, type EventSourceInit } from 'eventsource'
import type { Test } from 'tap'
import type { PrivateKeyAccount } from 'viem'
import { createGatewayClient, type GatewayClientOptions, GatewayProblem } from 'swap-gateway-client'
import type { Eip1193Provider } from 'swap-gateway-client'
import { startAuthGateway } from '../auth/client.js'
import { eventually } from '../helpers/eventually.js'
import { newWallet } from '../helpers/wallet.js'
import type { GatewayOptions } from '../helpers/gateway.js'
import { roomyLimits } from '../helpers/limits.js'
import { picks } from '../helpers/picks.js'

export async function clientGateway(t: Test, opts: GatewayOptions = {}) {
  const gw = await startAuthGateway(t, {
    ...opts,
    // Browsers would wait 5 s before reconnecting, and a shutdown would take 5 s; tests need not.
    env: { RATE_LIMITS: roomyLimits(100_000), SSE_RETRY_MS: '100', SSE_DRAIN_SPREAD_MS: '0', ...opts.env },
    // No jitter: every stream is advised the same `retry:`, which pastReconnects relies on.
    deps: { random: () => 0.5, ...opts.deps },
  })
  const p = picks(gw.sandbox.control.tokens())
  const client = (more: GatewayClientOptions = {}) =>
    createGatewayClient({ baseUrl: gw.url, EventSource, ...more })
  return { ...gw, control: gw.sandbox.control, p, client }
}

/** The `eventsource` class, counting every connection it makes (reconnects included). */
export function countingEventSource() {
  const connections: string[] = []
  class Counting extends EventSource {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, {
        ...init,
        fetch: (input, options) => {
          connections.push(String(input))
          return fetch(input, options)
        },
      })
    }
  }
  return { EventSource: Counting, connections }
}

/**
 * Resolves once any stream of `url` the gateway ended before now would have been reconnected, had its
 * EventSource been left open: a witness opened now, and left open, is ended too (a finished order's
 * stream at once, a quote's at its longest life) and comes back. The EventSource waits the gateway's
 * `retry:` advice on the process's timers, the same for every stream here (clientGateway), and Node
 * runs timers of one delay in the order they were set: the witness's reconnect is the later one.
 */
export async function pastReconnects(t: Test, url: string): Promise<void> {
  const witness = countingEventSource()
  const source = new witness.EventSource(url)
  t.teardown(() => source.close())
  await eventually('the witness to reconnect', () => witness.connections.length === 2)
  source.close()
}

/** A wallet as a dapp sees it: an EIP-1193 provider over a private-key account; records its calls. */
export function walletProvider(account: PrivateKeyAccount = newWallet(), chainHex = '0x1') {
  const calls: string[] = []
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push(method)
      switch (method) {
        case 'eth_requestAccounts':
          return [account.address.toLowerCase()]
        case 'eth_chainId':
          return chainHex
        case 'personal_sign': {
          const [hex, address] = params as [`0x${string}`, string]
          if (address.toLowerCase() !== account.address.toLowerCase()) throw new Error('unknown account')
          return account.signMessage({ message: { raw: hex } })
        }
        default:
          throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 })
      }
    },
  }
  return { account, provider, calls, signatures: () => calls.filter((m) => m === 'personal_sign').length }
}

/** The GatewayProblem a call rejects with; fails the test if it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<GatewayProblem> {
  try {
    await promise
  } catch (err) {
    if (err instanceof GatewayProblem) return err
    throw err
  }
  throw new Error('expected a rejection')
}
