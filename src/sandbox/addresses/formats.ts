// Address and transaction-hash encodings of the chains in the catalog. One place knows how each
// family of chains spells an address, so minting (deposit addresses, catalog contracts) and
// validation (receiving addresses) agree by construction.
import { createHash } from 'node:crypto'
import { base58, base58xrp, bech32, bech32m, createBase58check, utils } from '@scure/base'
import { getAddress } from 'viem'

export type AddressFormat = 'evm' | 'btc' | 'ltc' | 'doge' | 'sol' | 'trx' | 'xrp' | 'ton' | 'sui'

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest())
}

export const base58check = createBase58check(sha256)

/** XRP uses base58check over its own alphabet. */
export const xrpBase58check = utils.chain(
  utils.checksum(4, (data) => sha256(sha256(data))),
  base58xrp,
)

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex')
}

export function evmAddress(bytes20: Uint8Array): string {
  return getAddress(`0x${hex(bytes20)}`)
}

/** BIP-173 (witness v0) or BIP-350 (v1+, taproot) segwit address. */
export function segwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const words = [version, ...bech32.toWords(program)]
  return version === 0 ? bech32.encode(hrp, words) : bech32m.encode(hrp, words)
}

export function versionedBase58(version: number, payload: Uint8Array): string {
  return base58check.encode(Uint8Array.of(version, ...payload))
}

export function xrpAddress(accountId20: Uint8Array): string {
  return xrpBase58check.encode(Uint8Array.of(0, ...accountId20))
}

/** CRC-16/XMODEM, the checksum of TON user-friendly addresses. */
export function crc16(data: Uint8Array): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

/** TON user-friendly form: `EQ…` for bounceable contracts, `UQ…` for wallets. */
export function tonAddress(hash32: Uint8Array, bounceable: boolean): string {
  const body = Uint8Array.of(bounceable ? 0x11 : 0x51, 0, ...hash32)
  const crc = crc16(body)
  return Buffer.from(Uint8Array.of(...body, crc >> 8, crc & 0xff)).toString('base64url')
}

export { base58 }
