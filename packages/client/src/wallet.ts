// The three EIP-1193 requests sign-in needs, over any provider (window.ethereum, a WalletConnect
// provider, a test double): the account, its chain, and a personal_sign of the challenge message.

/** Any EIP-1193 provider: only `request` is used. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>
}

export interface WalletAccount {
  address: string
  /** As the gateway takes it: decimal (`1`) or CAIP-2 (`eip155:1`). */
  chainId: string
}

export async function walletAccount(
  provider: Eip1193Provider,
  chainId?: number | string,
): Promise<WalletAccount> {
  const accounts = await provider.request({ method: 'eth_requestAccounts' })
  const address = Array.isArray(accounts) ? accounts[0] : undefined
  if (typeof address !== 'string') throw new Error('The wallet gave no account.')
  if (chainId !== undefined) return { address, chainId: String(chainId) }
  const hex = await provider.request({ method: 'eth_chainId' })
  if (typeof hex !== 'string' || !/^0x[0-9a-f]+$/i.test(hex)) throw new Error('The wallet gave no chain id.')
  return { address, chainId: String(parseInt(hex, 16)) }
}

/** personal_sign takes the message as hex of its UTF-8 bytes (EIP-191), then the signing account. */
export async function personalSign(
  provider: Eip1193Provider,
  address: string,
  message: string,
): Promise<string> {
  const bytes = new TextEncoder().encode(message)
  const hex = `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
  const signature = await provider.request({ method: 'personal_sign', params: [hex, address] })
  if (typeof signature !== 'string') throw new Error('The wallet gave no signature.')
  return signature
}
