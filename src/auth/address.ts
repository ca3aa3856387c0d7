// EVM addresses as sign-in handles them: `0x` and 40 hex digits, with EIP-55's mixed-case checksum
// (each letter upper-case where the Keccak-256 hash of the lower-case hex has a nibble of 8 or more).
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

export type Address = `0x${string}`

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** The EIP-55 form of an address in any case; throws for anything that is not 0x and 40 hex digits. */
export function getAddress(address: string): Address {
  if (!HEX_ADDRESS.test(address)) throw new TypeError(`not an EVM address: ${address}`)
  const hex = address.slice(2).toLowerCase()
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)))
  let out = '0x'
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]
  return out as Address
}

/** 0x and 40 hex digits, all lower-case (no checksum) or exactly its EIP-55 form. */
export function isAddress(address: string): address is Address {
  if (!HEX_ADDRESS.test(address)) return false
  return address === address.toLowerCase() || getAddress(address) === address
}

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
