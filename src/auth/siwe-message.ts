// EIP-4361 (Sign-In with Ethereum) messages as the gateway writes and checks them: the EIP's line
// layout, built for the gateway's own sites and read back field by field with the whole message
// anchored, so no text can hide before, between or after the fields. The upstream owns the nonce and
// only promises a string, while EIP-4361 wants 8+ alphanumerics: a nonce of other visible ASCII is
// carried verbatim (the upstream judges it); one with spaces or control characters cannot sit on one
// line safely, and no message is built for it.
import { type Address, getAddress, sameAddress } from './address.js'

const CARRIABLE_NONCE = /^[\x21-\x7e]+$/
const NONCE_LINE = /^Nonce: (.*)$/m
const NONCE_LINES = /^Nonce: /gm
/**
 * The CAIP-122 preamble every SIWx message opens with (EIP-4361 is its Ethereum form). Looked for on
 * every line: a message that hides it below a first line must not dodge the checks.
 */
const PREAMBLE = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?(\S+) wants you to sign in with your (.+) account:$/m
/**
 * The whole message, EIP-4361's ABNF line by line, the optional fields in the EIP's order. Without a
 * statement, the ABNF keeps both blank lines; builders that write only one are read as well.
 */
const MESSAGE = new RegExp(
  [
    String.raw`^(?:(?<scheme>[a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?(?<domain>\S+) wants you to sign in with your Ethereum account:\n`,
    String.raw`(?<address>0x[0-9a-fA-F]{40})\n\n(?:(?<statement>[^\n]+)\n\n|\n)?`,
    String.raw`URI: (?<uri>\S+)\nVersion: (?<version>[^\n]+)\nChain ID: (?<chainId>[1-9]\d{0,15})\n`,
    String.raw`Nonce: (?<nonce>[\x21-\x7e]+)\nIssued At: (?<issuedAt>[^\n]+)`,
    String.raw`(?:\nExpiration Time: (?<expirationTime>[^\n]+))?(?:\nNot Before: (?<notBefore>[^\n]+))?`,
    String.raw`(?:\nRequest ID: (?<requestId>[^\n]*))?(?:\nResources:(?<resources>(?:\n- [^\n]+)*))?$`,
  ].join(''),
)
/** RFC 3339 date-time, as EIP-4361's timestamps are written. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/
/**
 * An authority the gateway writes in a message: a dotted host name, an IPv4 address or localhost, as
 * EIP-4361 builders accept, or an IPv6 literal such as `[::1]` (an RFC 3986 authority as the EIP
 * defines `domain`, though viem's builder refuses it), with a port.
 */
const DOMAIN =
  /^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+(?:[a-zA-Z]{2,63}|xn--[a-zA-Z0-9-]{0,58}[a-zA-Z0-9])|(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)|localhost|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*$/

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

/** An EIP-4361 message's fields as written (timestamps too: they are checked, not trusted, here). */
export interface SiweFields {
  scheme?: string
  domain: string
  address: string
  statement?: string
  uri: string
  version: string
  chainId: number
  nonce: string
  issuedAt: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources?: string[]
}

export function canCarryNonce(nonce: string): boolean {
  return CARRIABLE_NONCE.test(nonce)
}

const oneLine = (value: string) => value !== '' && !/[\r\n]/.test(value)

/**
 * The message text, or undefined for a nonce that cannot be carried (see the file header) or a domain
 * that EIP-4361 signers refuse (a single-label host such as `gateway:3000`).
 */
export function buildMessage(fields: MessageFields): string | undefined {
  if (!canCarryNonce(fields.nonce) || !DOMAIN.test(fields.domain) || !SCHEME.test(fields.scheme))
    return undefined
  if (!Number.isSafeInteger(fields.chainId) || ![fields.uri, fields.statement].every(oneLine))
    return undefined
  // EIP-4361: without a scheme, https is implied; say it only when it is something else.
  const site = fields.scheme === 'https' ? fields.domain : `${fields.scheme}://${fields.domain}`
  return [
    `${site} wants you to sign in with your Ethereum account:`,
    getAddress(fields.address),
    '',
    fields.statement,
    '',
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expirationTime.toISOString()}`,
  ].join('\n')
}

export type ReadMessage =
  /** Not a SIWx message at all: the upstream's own bare `Nonce: <nonce>` format, naming no site. */
  | { kind: 'plain'; nonce: string | undefined }
  /** A CAIP-122 message for another kind of account: only its domain can be checked here. */
  | { kind: 'other-chain'; domain: string; scheme: string | undefined }
  | { kind: 'no-nonce' }
  | { kind: 'malformed' }
  | { kind: 'eip4361'; fields: SiweFields; nonce: string }

export function readMessage(text: string): ReadMessage {
  // One Nonce line only, so the upstream and this check cannot read different ones.
  if ((text.match(NONCE_LINES)?.length ?? 0) > 1) return { kind: 'malformed' }
  const preamble = PREAMBLE.exec(text)
  if (!preamble) return { kind: 'plain', nonce: NONCE_LINE.exec(text)?.[1] }
  if (preamble.index !== 0) return { kind: 'malformed' }
  if (preamble[3] !== 'Ethereum')
    return { kind: 'other-chain', domain: preamble[2] ?? '', scheme: preamble[1] }
  if (!NONCE_LINE.test(text)) return { kind: 'no-nonce' }
  const g = MESSAGE.exec(text)?.groups
  if (!g) return { kind: 'malformed' }
  const fields: SiweFields = {
    domain: g.domain!,
    address: g.address!,
    uri: g.uri!,
    version: g.version!,
    chainId: Number(g.chainId),
    nonce: g.nonce!,
    issuedAt: g.issuedAt!,
  }
  for (const key of ['scheme', 'statement', 'expirationTime', 'notBefore', 'requestId'] as const) {
    if (g[key] !== undefined) fields[key] = g[key]
  }
  if (g.resources !== undefined) fields.resources = g.resources.split('\n- ').slice(1)
  return { kind: 'eip4361', fields, nonce: fields.nonce }
}

export interface Expectations {
  /** The site the message must be for: its domain, scheme and URI (an origin). */
  domain: string
  scheme: string
  uri: string
  address: string
  chainId: number
  now: Date
  /** How long the message's nonce lives: an older Issued At cannot be for a live nonce. */
  nonceLifetimeMs: number
}

/** How far ahead of our clock an Issued At may be: the signer's clock may run a little fast. */
const ISSUED_AHEAD_MS = 60_000
/** The longest a message may be valid: an Expiration Time further from its Issued At is refused. */
const MAX_VALIDITY_MS = 60 * 60_000

/** The time a timestamp names, or undefined when it is not an RFC 3339 date-time. */
function timeOf(value: string): number | undefined {
  const ms = DATE_TIME.test(value) ? Date.parse(value) : NaN
  return Number.isNaN(ms) ? undefined : ms
}

/** Whether a URI is the origin `origin`, or a resource on it (no user information: it hides the host). */
function onOrigin(uri: string, origin: string): boolean {
  try {
    const url = new URL(uri)
    return url.origin === origin && url.username === '' && url.password === ''
  } catch {
    return false
  }
}

/** Why an EIP-4361 message must be refused, or undefined when it is ours, for this wallet, and current. */
export function messageProblem(fields: SiweFields, expect: Expectations): string | undefined {
  if (fields.domain !== expect.domain) return `the message is for ${fields.domain}, not this site`
  if ((fields.scheme ?? 'https') !== expect.scheme) return 'the message names another scheme than this site'
  if (!onOrigin(fields.uri, expect.uri)) return `the message's URI is not ${expect.uri}, the site it names`
  if (fields.chainId !== expect.chainId) return 'the message names another chain than data.chainId'
  try {
    getAddress(expect.address)
  } catch {
    return 'data.accountAddress is not an Ethereum address'
  }
  const windowProblem = validityProblem(fields, expect)
  if (windowProblem) return windowProblem
  if (!sameAddress(fields.address, expect.address)) {
    return 'the message names another address than data.accountAddress'
  }
  return undefined
}

/**
 * Why the message's times cannot be honoured now: Issued At no more than ISSUED_AHEAD_MS ahead and no
 * older than the nonce's lifetime; Expiration Time (when given) ahead and within MAX_VALIDITY_MS of
 * Issued At; Not Before (when given) passed. A message valid for a year would be a year-long pass.
 */
function validityProblem(fields: SiweFields, expect: Expectations): string | undefined {
  const now = expect.now.getTime()
  const [issued, expires, notBefore] = [fields.issuedAt, fields.expirationTime, fields.notBefore].map(
    (value) => (value === undefined ? null : timeOf(value)),
  )
  if (fields.version !== '1' || issued == null || expires === undefined || notBefore === undefined) {
    return 'the message is not well-formed'
  }
  const outside = (why: string) => `the message is outside its validity window: ${why}`
  if (issued > now + ISSUED_AHEAD_MS) return outside('its Issued At is in the future')
  if (expires !== null && expires > issued + MAX_VALIDITY_MS) {
    return outside('its Expiration Time is more than an hour after its Issued At')
  }
  if (hasLapsed(fields, now, expect.nonceLifetimeMs)) return outside('it has expired')
  if (notBefore !== null && now < notBefore) return outside('its Not Before has not come')
  return undefined
}

/**
 * Whether the message has lapsed at `now`, as messageProblem reads it: its Expiration Time passed, or
 * its Issued At older than its nonce can live. A fresh message cures it.
 */
export function hasLapsed(fields: SiweFields, now: number, nonceLifetimeMs: number): boolean {
  const expires = fields.expirationTime === undefined ? undefined : timeOf(fields.expirationTime)
  const issued = timeOf(fields.issuedAt)
  return (expires !== undefined && now >= expires) || (issued !== undefined && now - issued > nonceLifetimeMs)
}

/** The EIP-155 chain id of a decimal (`1`) or CAIP-2 (`eip155:1`) chain id; undefined for other chains. */
export function evmChainId(chainId: string): number | undefined {
  const match = /^(?:eip155:)?([1-9]\d{0,15})$/.exec(chainId)
  return match ? Number(match[1]) : undefined
}
