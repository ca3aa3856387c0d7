// Which browser origins may call the gateway, and the site a page on one of them is (docs/api.md, "Origins and CORS"):
// PUBLIC_ORIGIN, ALLOWED_ORIGINS, and, outside production, any loopback development server (Vite on
// http://localhost:5173 works with no configuration). The origin policy refuses the rest; sign-in
// names the asking page's site in its messages, because wallets warn when a message names another.
// Browsers send no Origin on a same-origin GET, also when a development proxy (Vite's server.proxy,
// webpack-dev-server, Next.js rewrites) passes the page's request on, keeping its Host or not: then
// what the browser does send on a same-origin request names the page (Sec-Fetch-Site says it is
// one; the Referer, or a Host that is itself an allowed origin, says which).
// Only an allowed page is ever named, so a header a client chose can pick among allowed sites
// (as its Origin could) but never make the gateway name another.

/** A page's site as an EIP-4361 message names it. */
export interface Site {
  /** The origin's authority: host, and port when not the scheme's default. */
  domain: string
  scheme: string
  uri: string
}

export interface OriginRules {
  publicOrigin: string
  allowedOrigins: readonly string[]
  /** Outside production: any http://localhost:<port>, http://127.0.0.1:<port> and http://[::1]:<port> too. */
  loopbackDevServers: boolean
}

const LOOPBACK_DEV_SERVER = /^http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::[1-9]\d{0,4})?$/

/** What says which page asks: the request's headers, and the scheme it came by (a FastifyRequest is one). */
export interface Asking {
  headers: {
    origin?: string | undefined
    referer?: string | undefined
    'sec-fetch-site'?: string | string[] | undefined
    host?: string | undefined
  }
  /** `http` or `https`, as Fastify reads it (X-Forwarded-Proto from a TRUST_PROXY proxy). */
  protocol: string
}

export const siteOf = (origin: string): Site => {
  const url = new URL(origin)
  return { domain: url.host, scheme: url.protocol.slice(0, -1), uri: url.origin }
}

export class AllowedOrigins {
  /** PUBLIC_ORIGIN first, then ALLOWED_ORIGINS: the origins allowed in every environment. */
  readonly listed: readonly string[]
  readonly publicSite: Site
  private readonly listedSet: ReadonlySet<string>

  constructor(private readonly rules: OriginRules) {
    this.listed = [...new Set([rules.publicOrigin, ...rules.allowedOrigins])]
    this.listedSet = new Set(this.listed)
    this.publicSite = siteOf(rules.publicOrigin)
  }

  /** Origins are compared exactly as browsers serialise them (`scheme://host[:port]`). */
  allows(origin: string): boolean {
    return this.listedSet.has(origin) || (this.rules.loopbackDevServers && LOOPBACK_DEV_SERVER.test(origin))
  }

  /** The site of an allowed origin; PUBLIC_ORIGIN's for no Origin (apps, servers) or any other. */
  siteFor(origin: string | undefined): Site {
    return origin !== undefined && origin !== this.rules.publicOrigin && this.allows(origin)
      ? siteOf(origin)
      : this.publicSite
  }

  /**
   * The site of the page asking: its Origin's (as siteFor). Without one, on a browser's same-origin
   * request (`Sec-Fetch-Site: same-origin`, perhaps through a development proxy): the Referer's
   * origin, or without a Referer the origin the Host names with the request's scheme, when allowed.
   * PUBLIC_ORIGIN's when nothing names an allowed page (apps and servers send no Fetch Metadata). A
   * Referer naming a page that is not allowed ends the search: that page asks, and is never named.
   */
  siteAsking({ headers, protocol }: Asking): Site {
    if (headers.origin !== undefined) return this.siteFor(headers.origin)
    if (headers['sec-fetch-site'] !== 'same-origin') return this.publicSite
    const { referer, host } = headers
    return this.siteFor(referer !== undefined ? originOf(referer) : originOfHost(protocol, host))
  }
}

/** The origin of an absolute http(s) URL, or undefined. */
function originOf(url: string): string | undefined {
  try {
    const { origin, protocol } = new URL(url)
    return protocol === 'http:' || protocol === 'https:' ? origin : undefined
  } catch {
    return undefined
  }
}

/** The origin a Host header names under `protocol`, or undefined when it is not a bare authority. */
function originOfHost(protocol: string, host: string | undefined): string | undefined {
  if (host === undefined) return undefined
  const origin = originOf(`${protocol}://${host}`)
  // Nothing but host and port: `a@b`, paths and the like name another host than they seem to.
  return origin !== undefined && new URL(origin).host === host.toLowerCase() ? origin : undefined
}
