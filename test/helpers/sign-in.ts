// Signing in as a wallet does it, the one copy the tests share: a real private key (viem) signs the
// message, and the signature goes to verify with the account and chain it claims. Two doors: the
// sandbox's own routes (the upstream, which reads only the `Nonce:` line: an EIP-4361 message of its
// own site, the tenant key), and the gateway's, through a browser-like client (the EIP-4361 message
// its challenge gives for the wallet, cookies kept). The gateway refuses the upstream's bare
// `Nonce: <nonce>` message unless SIWX_ALLOW_BARE_MESSAGES=true; tests that need it set that.
import type { PrivateKeyAccount } from 'viem'
import { z } from 'zod'
import { type CallResult, call, TENANT } from '../sandbox/http.js'
import { newWallet } from './wallet.js'

/** The verify body for `message`: signed by the wallet, or by `signer` for a signature that is not its own. */
export async function signedBody(
  wallet: PrivateKeyAccount,
  message: string,
  { chainId = '1', signer = wallet }: { chainId?: string; signer?: PrivateKeyAccount } = {},
) {
  const signature = await signer.signMessage({ message })
  return { data: { chainId, accountAddress: wallet.address }, message, signature }
}

// The sandbox, directly.

export const sessionSchema = z.object({ accessToken: z.string(), refreshToken: z.string() }).strict()

export function siwxMessage(address: string, nonce: string): string {
  return [
    'swap.example wants you to sign in with your Ethereum account:',
    address,
    '',
    'Sign in to the swap service.',
    '',
    'URI: https://swap.example',
    'Version: 1',
    'Chain ID: 1',
    `Nonce: ${nonce}`,
    'Issued At: 2025-01-01T00:00:00.000Z',
  ].join('\n')
}

export async function sandboxChallenge(base: string): Promise<string> {
  const res = await call(base, '/auth/siwx/challenge')
  return z.object({ nonce: z.string() }).strict().parse(res.body).nonce
}

/** A verify call to the sandbox: the wallet's signature of the message for `nonce`, unless told otherwise. */
export async function sandboxVerify(
  base: string,
  wallet: PrivateKeyAccount,
  nonce: string,
  opts: {
    message?: string
    signer?: PrivateKeyAccount
    signature?: string
    headers?: Record<string, string>
  } = {},
): Promise<CallResult> {
  const body = await signedBody(wallet, opts.message ?? siwxMessage(wallet.address, nonce), opts)
  return call(base, '/auth/siwx/verify', {
    headers: opts.headers ?? TENANT,
    json: { ...body, signature: opts.signature ?? body.signature },
  })
}

/** A complete sign-in at the sandbox; returns the 201 body's tokens and the answer. */
export async function signInToSandbox(base: string, wallet: PrivateKeyAccount = newWallet()) {
  const res = await sandboxVerify(base, wallet, await sandboxChallenge(base))
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${res.text}`)
  return { wallet, ...sessionSchema.parse(res.body), res }
}

// The gateway, as a browser.

/** An answer as the browser-like client reads it. */
interface Answer {
  status: number
  text: string
  json?: unknown
}

/** A client that keeps the cookies it is given (test/auth/client.ts). */
interface Browser<A extends Answer> {
  get(path: string): Promise<A>
  post(path: string, opts: { body?: unknown; headers?: Record<string, string> }): Promise<A>
}

/** The wallet signs `message` (a challenge's) and the client posts it to verify: one call, signed in. */
export async function verifyThroughGateway<A extends Answer>(
  client: Browser<A>,
  wallet: PrivateKeyAccount,
  message: string,
  chainId = '1',
  headers?: Record<string, string>,
) {
  const body = await signedBody(wallet, message, { chainId })
  const verify = await client.post('/api/auth/siwx/verify', { body, headers })
  return { body, signature: body.signature, verify }
}

/** A challenge for this wallet, signed with its key, and verified: the one-signature sign-in. */
export async function signInThroughGateway<A extends Answer>(
  client: Browser<A>,
  wallet: PrivateKeyAccount,
  chainId = '1',
  headers?: Record<string, string>,
) {
  const challenge = await client.get(`/api/auth/siwx/challenge?address=${wallet.address}&chainId=${chainId}`)
  if (challenge.status !== 200) throw new Error(`challenge failed: ${challenge.text}`)
  const { message } = z.object({ message: z.string() }).parse(challenge.json)
  return { challenge, message, ...(await verifyThroughGateway(client, wallet, message, chainId, headers)) }
}
