// A push endpoint is a URL a stranger chose, and the gateway POSTs to it: it must not be a way into
// the operator's own network. `https:` only; the host may not be an IP literal, nor resolve to any
// address that is not public unicast (loopback, private, link-local, unique-local, and the rest
// ipaddr.js names). Checked when the endpoint is subscribed, and again by the lookup of every
// connection, so a DNS answer that changes afterwards cannot reach inside. Local endpoints (`http:`,
// loopback) are admitted only when configured, for a push service double in tests.
import { lookup as systemLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

/** `dns.lookup`'s shape with `all: true`: every address of a name. */
export type Resolve = (
  host: string,
  callback: (err: Error | null, addresses: LookupAddress[]) => void,
) => void

export const systemResolve: Resolve = (host, callback) =>
  systemLookup(host, { all: true, verbatim: true }, callback)

export interface EndpointRules {
  /** WEB_PUSH_ALLOW_LOCAL_ENDPOINTS: `http:` and loopback admitted. */
  allowLocal: boolean
  resolve: Resolve
}

/** Why an endpoint is refused, in the words of a field error; undefined when its form is admitted. */
export function endpointFormRefusal(endpoint: string, allowLocal: boolean): string | undefined {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) return 'must be an https: URL'
  if (url.username || url.password) return 'must not carry credentials'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) && !(allowLocal && addressAdmitted(host, allowLocal)))
    return 'must name its host, not an IP address'
  return undefined
}

/** Whether a connection may go to this address: public unicast, or loopback when local is allowed. */
export function addressAdmitted(address: string, allowLocal: boolean): boolean {
  if (!ipaddr.isValid(address)) return false
  const range = ipaddr.process(address).range()
  return range === 'unicast' || (allowLocal && range === 'loopback')
}

const refusal = (host: string) =>
  Object.assign(new Error(`push endpoint host ${host} resolves to an address that is not public`), {
    code: 'PUSH_ENDPOINT_REFUSED',
  })

/** Every address of the host, refused whole when one of them is not admitted. */
export function admittedAddresses(host: string, rules: EndpointRules): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    if (isIP(host)) {
      if (addressAdmitted(host, rules.allowLocal)) resolve([{ address: host, family: isIP(host) }])
      else reject(refusal(host))
      return
    }
    rules.resolve(host, (err, addresses) => {
      if (err) reject(err)
      else if (addresses.length === 0 || addresses.some((a) => !addressAdmitted(a.address, rules.allowLocal)))
        reject(refusal(host))
      else resolve(addresses)
    })
  })
}

/** The lookup every push connection makes (net.connect's `lookup`): admitted addresses only. */
export function guardedLookup(rules: EndpointRules): LookupFunction {
  return (host: string, options: LookupOptions, callback) => {
    admittedAddresses(host, rules).then(
      (addresses) => {
        const wanted = addresses.filter((a) => !options.family || a.family === options.family)
        const found = wanted.length > 0 ? wanted : addresses
        if (options.all) callback(null, found)
        else callback(null, found[0]!.address, found[0]!.family)
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    )
  }
}
