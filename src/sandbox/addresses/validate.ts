// Receiving-address checks per chain family, strict enough that a typo or an address of another
// chain is refused the way the upstream refuses it ("Invalid <NETWORK> address: <value>").
import { base58, bech32, bech32m } from '@scure/base'
import { isAddress } from 'viem'
import { type AddressFormat, base58check, crc16, xrpBase58check } from './formats.js'

function attempt<T>(decode: () => T): T | undefined {
  try {
    return decode()
  } catch {
    return undefined
  }
}

function isSegwit(value: string, hrp: string): boolean {
  const lower = value.toLowerCase()
  if (!lower.startsWith(`${hrp}1`)) return false
  const decoded = bech32.decodeUnsafe(value) ?? bech32m.decodeUnsafe(value)
  if (!decoded || decoded.prefix !== hrp) return false
  const [version, ...words] = decoded.words
  if (version === undefined || version > 16) return false
  const program = bech32.fromWordsUnsafe(words)
  if (!program) return false
  // v0 must use bech32 and v1+ bech32m (BIP-350); both checksums cannot pass for the same string.
  const usesBech32m = bech32m.decodeUnsafe(value) !== undefined
  if (version === 0) return !usesBech32m && (program.length === 20 || program.length === 32)
  return (
    usesBech32m && program.length >= 2 && program.length <= 40 && (version !== 1 || program.length === 32)
  )
}

function hasBase58Version(value: string, versions: number[], payloadLength = 20): boolean {
  const bytes = attempt(() => base58check.decode(value))
  return bytes !== undefined && bytes.length === payloadLength + 1 && versions.includes(bytes[0] ?? -1)
}

function isTon(value: string): boolean {
  if (/^-?\d+:[0-9a-fA-F]{64}$/.test(value)) return true
  if (!/^[A-Za-z0-9_\-+/]{48}$/.test(value)) return false
  const bytes = new Uint8Array(Buffer.from(value.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url'))
  if (bytes.length !== 36) return false
  const crc = crc16(bytes.subarray(0, 34))
  return bytes[34] === crc >> 8 && bytes[35] === (crc & 0xff)
}

export function isValidAddress(format: AddressFormat, value: string): boolean {
  switch (format) {
    case 'evm':
      return isAddress(value)
    case 'btc':
      return isSegwit(value, 'bc') || hasBase58Version(value, [0x00, 0x05])
    case 'ltc':
      return isSegwit(value, 'ltc') || hasBase58Version(value, [0x30, 0x32, 0x05])
    case 'doge':
      return hasBase58Version(value, [0x1e, 0x16])
    case 'sol':
      return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value) && attempt(() => base58.decode(value))?.length === 32
    case 'trx':
      return value.startsWith('T') && hasBase58Version(value, [0x41])
    case 'xrp': {
      const bytes = value.startsWith('r') ? attempt(() => xrpBase58check.decode(value)) : undefined
      return bytes !== undefined && bytes.length === 21 && bytes[0] === 0
    }
    case 'ton':
      return isTon(value)
    case 'sui':
      return /^0x[0-9a-fA-F]{64}$/.test(value)
  }
}
