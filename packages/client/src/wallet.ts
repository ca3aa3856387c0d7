// What signs the sign-in message: any EIP-1193 provider (window.ethereum, a WalletConnect provider,
// a test double: the account, its chain, and a personal_sign of the message), or an app's own signing
// function with the account and chain it signs for (a mobile wallet SDK, a key the app holds).

/** Any EIP-1193 provider: only `request` is used. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>
}

/** A signer of the app's own: signs the message as EIP-191 `personal_sign` does, for `address`. */
export interface MessageSigner {
  address: string
  /** The chain to sign in on: decimal (`1`) or CAIP-2 (`eip155:1`). */
  chainId: number | string
  /** Resolves to the signature (hex) of the message, as text (EIP-191). */
  signMessage(message: string): Promise<string>
}

/** What `signIn` and `createGatewayClient({ wallet })` take. */
export type Wallet = Eip1193Provider | MessageSigner

/** A wallet resolved to the account that signs and how. */
export interface WalletAccount {
  address: string
  /** As the gateway takes it: decimal (`1`) or CAIP-2 (`eip155:1`). */
  chainId: string
  sign(message: string): Promise<string>
}

const isProvider = (wallet: Wallet): wallet is Eip1193Provider =>
  typeof (wallet as Partial<Eip1193Provider>).request === 'function'

export async function walletAccount(wallet: Wallet, chainId?: number | string): Promise<WalletAccount> {
  if (!isProvider(wallet)) {
    return {
      address: wallet.address,
      chainId: String(chainId ?? wallet.chainId),
      sign: (message) => wallet.signMessage(message),
    }
  }
  const accounts = await wallet.request({ method: 'eth_requestAccounts' })
  const address = Array.isArray(accounts) ? accounts[0] : undefined
  if (typeof address !== 'string') throw new Error('The wallet gave no account.')
  const sign = (message: string) => personalSign(wallet, address, message)
  if (chainId !== undefined) return { address, chainId: String(chainId), sign }
  const hex = await wallet.request({ method: 'eth_chainId' })
  if (typeof hex !== 'string' || !/^0x[0-9a-f]+$/i.test(hex)) throw new Error('The wallet gave no chain id.')
  return { address, chainId: String(parseInt(hex, 16)), sign }
}

/**
 * The message as hex of its UTF-8 bytes: encodeURIComponent already writes every non-ASCII
 * character as its UTF-8 bytes (`%E2%82%AC`), and every runtime has it (older React Native's Hermes
 * has no TextEncoder).
 */
const utf8Hex = (text: string) =>
  encodeURIComponent(text).replace(/%([0-9A-F]{2})|[^]/g, (char, byte?: string) =>
    (byte ?? char.charCodeAt(0).toString(16).padStart(2, '0')).toLowerCase(),
  )

/** personal_sign takes the message as hex of its UTF-8 bytes (EIP-191), then the signing account. */
async function personalSign(provider: Eip1193Provider, address: string, message: string): Promise<string> {
  const signature = await provider.request({
    method: 'personal_sign',
    params: [`0x${utf8Hex(message)}`, address],
  })
  if (typeof signature !== 'string') throw new Error('The wallet gave no signature.')
  return signature
}
