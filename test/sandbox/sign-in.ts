// SIWX as a wallet does it: fetch a challenge, sign a message carrying `Nonce: <nonce>` with a
// real private key (viem), and exchange the signature at /auth/siwx/verify.

import type { PrivateKeyAccount } from 'viem/accounts'
import { z } from 'zod'
import { newWallet } from '../helpers/wallet.js'
import { type CallResult, call, TENANT } from './http.js'

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

export async function challenge(base: string): Promise<string> {
  const res = await call(base, '/auth/siwx/challenge')
  return z.object({ nonce: z.string() }).strict().parse(res.body).nonce
}

export async function verify(
  base: string,
  wallet: PrivateKeyAccount,
  nonce: string,
  opts: { message?: string; signature?: string; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const message = opts.message ?? siwxMessage(wallet.address, nonce)
  const signature = opts.signature ?? (await wallet.signMessage({ message }))
  return call(base, '/auth/siwx/verify', {
    headers: opts.headers ?? TENANT,
    json: { data: { chainId: '1', accountAddress: wallet.address }, message, signature },
  })
}

/** A complete sign-in; returns the 201 body and cookies. */
export async function signIn(base: string, wallet: PrivateKeyAccount = newWallet()) {
  const res = await verify(base, wallet, await challenge(base))
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${res.text}`)
  return { wallet, ...sessionSchema.parse(res.body), res }
}
