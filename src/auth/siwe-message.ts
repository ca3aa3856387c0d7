// EIP-4361 (Sign-In with Ethereum) messages, built and read with viem's maintained implementation.
// The upstream owns the nonce and only promises a string, while EIP-4361 wants 8+ alphanumerics (and
// viem refuses anything else). A nonce of other visible ASCII is still carried verbatim: the message
// is built and parsed with a conforming stand-in in the Nonce field, then the stand-in is swapped for
// the upstream's nonce, so every other field keeps the library's exact layout and checks. A nonce with
// spaces or control characters cannot sit on one line safely: no message is built for it.
import { type Address, getAddress } from 'viem'
import { createSiweMessage, parseSiweMessage, type SiweMessage, validateSiweMessage } from 'viem/siwe'

const CONFORMING_NONCE = /^[A-Za-z0-9]{8,}$/
const CARRIABLE_NONCE = /^[\x21-\x7e]+$/
/** Never a real nonce: only ever used while viem formats or parses the message. */
const STAND_IN = 'GatewayNonceStandIn0'
const NONCE_LINE = /^Nonce: (.*)$/m
const NONCE_LINES = /^Nonce: /gm
/**
 * The CAIP-122 preamble every SIWx message opens with (EIP-4361 is its Ethereum form). Looked for on
 * every line: a message that hides it below a first line must not dodge the checks.
 */
const PREAMBLE = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?(\S+) wants you to sign in with your (.+) account:$/m

export interface MessageFields {
  /** The authority (host, and port when not the scheme's default) of the gateway's public origin. */
  domain: string
  scheme: string
  uri: string
  address: Address
  chainId: number
  nonce: string
  statement: string
  issuedAt: Date
  expirationTime: Date
}

export function canCarryNonce(nonce: string): boolean {
  return CARRIABLE_NONCE.test(nonce)
}

/**
 * The message text, or undefined for a nonce that cannot be carried (see the file header) or a domain
 * viem's strict builder refuses (a single-label host such as `gateway:3000`, an IPv6 literal).
 */
export function buildMessage(fields: MessageFields): string | undefined {
  if (!canCarryNonce(fields.nonce)) return undefined
  const conforming = CONFORMING_NONCE.test(fields.nonce)
  let text: string
  try {
    text = createSiweMessage({
      ...fields,
      // EIP-4361: without a scheme, https is implied; say it only when it is something else.
      scheme: fields.scheme === 'https' ? undefined : fields.scheme,
      nonce: conforming ? fields.nonce : STAND_IN,
      version: '1',
    })
  } catch {
    return undefined
  }
  return conforming ? text : text.replace(`\nNonce: ${STAND_IN}\n`, `\nNonce: ${fields.nonce}\n`)
}

export type ReadMessage =
  /** Not a SIWx message at all: the upstream's own `Nonce: <nonce>` format. */
  | { kind: 'plain' }
  /** A CAIP-122 message for another kind of account: only its domain can be checked here. */
  | { kind: 'other-chain'; domain: string; scheme: string | undefined }
  | { kind: 'no-nonce' }
  | { kind: 'malformed' }
  | { kind: 'eip4361'; fields: Partial<SiweMessage>; nonce: string }

export function readMessage(text: string): ReadMessage {
  const preamble = PREAMBLE.exec(text)
  if (!preamble) return { kind: 'plain' }
  if (preamble.index !== 0) return { kind: 'malformed' }
  if (preamble[3] !== 'Ethereum')
    return { kind: 'other-chain', domain: preamble[2] ?? '', scheme: preamble[1] }
  const nonce = NONCE_LINE.exec(text)?.[1]
  if (nonce === undefined) return { kind: 'no-nonce' }
  // One Nonce line only, so the upstream and this check cannot read different ones.
  if (!canCarryNonce(nonce) || (text.match(NONCE_LINES)?.length ?? 0) > 1) return { kind: 'malformed' }
  const fields = parseSiweMessage(
    CONFORMING_NONCE.test(nonce) ? text : text.replace(NONCE_LINE, `Nonce: ${STAND_IN}`),
  )
  if (!fields.address || !fields.domain || !fields.uri || fields.chainId === undefined || !fields.nonce) {
    return { kind: 'malformed' }
  }
  return { kind: 'eip4361', fields, nonce }
}

export interface Expectations {
  domain: string
  scheme: string
  address: string
  chainId: number
  now: Date
}

/** Why an EIP-4361 message must be refused, or undefined when it is ours, for this wallet, and current. */
export function messageProblem(fields: Partial<SiweMessage>, expect: Expectations): string | undefined {
  if (fields.domain !== expect.domain) return `the message is for ${fields.domain}, not this site`
  if ((fields.scheme ?? 'https') !== expect.scheme) return 'the message names another scheme than this site'
  if (fields.chainId !== expect.chainId) return 'the message names another chain than data.chainId'
  let address: Address
  try {
    address = getAddress(expect.address)
  } catch {
    return 'data.accountAddress is not an Ethereum address'
  }
  if (!validateSiweMessage({ message: fields, time: expect.now })) {
    return 'the message is not well-formed or outside its validity window'
  }
  if (!validateSiweMessage({ message: fields, address, time: expect.now })) {
    return 'the message names another address than data.accountAddress'
  }
  return undefined
}

/** The EIP-155 chain id of a decimal (`1`) or CAIP-2 (`eip155:1`) chain id; undefined for other chains. */
export function evmChainId(chainId: string): number | undefined {
  const match = /^(?:eip155:)?([1-9]\d{0,15})$/.exec(chainId)
  return match ? Number(match[1]) : undefined
}
