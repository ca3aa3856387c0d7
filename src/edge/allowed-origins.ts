// Which browser origins may call the gateway, and the site a page on one of them is (docs/api.md, "Origins and CORS"):
// PUBLIC_ORIGIN, ALLOWED_ORIGINS, and, outside production, any loopback development server (Vite on
// http://localhost:5173 works with no configuration). The origin policy refuses the rest; sign-in
// names the asking page's site in its messages, because wallets warn when a message names another.

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
  /** Outside production: any http://localhost:<port> and http://127.0.0.1:<port> is allowed too. */
  loopbackDevServers: boolean
}

const LOOPBACK_DEV_SERVER = /^http:\/\/(?:localhost|127\.0\.0\.1)(?::[1-9]\d{0,4})?$/

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
}
