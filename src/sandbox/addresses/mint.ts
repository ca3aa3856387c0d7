// Makes addresses and transaction hashes from a byte source: random bytes for per-order deposit
// addresses and hashes, seeded bytes for the catalog's stable contract addresses.
import { randomBytes } from 'node:crypto'
import {
  type AddressFormat,
  base58,
  evmAddress,
  hex,
  segwitAddress,
  tonAddress,
  versionedBase58,
  xrpAddress,
} from './formats.js'

export type ByteSource = (length: number) => Uint8Array

export const randomSource: ByteSource = (length) => new Uint8Array(randomBytes(length))

/** A wallet-style address of the format: taproot for BTC, as the spec says of deposit addresses. */
export function mintAddress(format: AddressFormat, bytes: ByteSource = randomSource): string {
  switch (format) {
    case 'evm':
      return evmAddress(bytes(20))
    case 'btc':
      return segwitAddress('bc', 1, bytes(32))
    case 'ltc':
      return segwitAddress('ltc', 0, bytes(20))
    case 'doge':
      return versionedBase58(0x1e, bytes(20))
    case 'sol':
      return base58.encode(bytes(32))
    case 'trx':
      return versionedBase58(0x41, bytes(20))
    case 'xrp':
      return xrpAddress(bytes(20))
    case 'ton':
      return tonAddress(bytes(32), false)
    case 'sui':
      return `0x${hex(bytes(32))}`
  }
}

export function mintTxHash(format: AddressFormat, bytes: ByteSource = randomSource): string {
  switch (format) {
    case 'evm':
      return `0x${hex(bytes(32))}`
    case 'sol':
      return base58.encode(bytes(64))
    case 'sui':
      return base58.encode(bytes(32))
    case 'xrp':
      return hex(bytes(32)).toUpperCase()
    default:
      return hex(bytes(32))
  }
}
