// The typed client against a listening gateway in front of a fresh sandbox: Node's global fetch, the
// `eventsource` package as EventSource, a movable clock, and an EIP-1193 wallet over a viem key.
import { EventSource } from 'eventsource'
import type { Test } from 'tap'
import type { PrivateKeyAccount } from 'viem'
import { createGatewayClient, type GatewayClientOptions, GatewayProblem } from 'swap-gateway-client'
import type { Eip1193Provider } from 'swap-gateway-client'
import { startAuthGateway } from '../auth/client.js'
import { newWallet } from '../helpers/wallet.js'
import type { GatewayOptions } from '../helpers/gateway.js'
import { roomyLimits } from '../helpers/limits.js'
import { picks } from '../helpers/picks.js'

export async function clientGateway(t: Test, opts: GatewayOptions = {}) {
  const gw = await startAuthGateway(t, {
    ...opts,
    // Browsers would wait 5 s before reconnecting; a test that counts reconnects need not.
    env: { RATE_LIMITS: roomyLimits(100_000), SSE_RETRY_MS: '100', ...opts.env },
  })
  const p = picks(gw.sandbox.control.tokens())
  const client = (more: GatewayClientOptions = {}) =>
    createGatewayClient({ baseUrl: gw.url, EventSource, ...more })
  return { ...gw, control: gw.sandbox.control, p, client }
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
