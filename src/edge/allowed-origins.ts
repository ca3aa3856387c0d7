// Which browser origins may call the gateway, and the site a page on one of them is (docs/api.md, "Origins and CORS"):
// PUBLIC_ORIGIN, ALLOWED_ORIGINS, and, outside production, any loopback development server (Vite on
// http://localhost:5173 works with no configuration). The origin policy refuses the rest; sign-in
// names the asking page's site in its messages, because wallets warn when a message names another.
// Outside production a page the gateway serves itself may be opened under another loopback name than
// PUBLIC_ORIGIN's (http://127.0.0.1:3000, the address the log prints, for http://localhost:3000): its
// same-origin GETs carry no Origin, so the Host it used names its site.

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
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** The request headers that say which page asks. */
export interface Asking {
  origin?: string | undefined
  host?: string | undefined
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
   * The site of the page asking: its Origin's (as siteFor); without one, outside production, the
   * loopback alias of PUBLIC_ORIGIN its Host names (same scheme and port, another loopback name).
   */
  siteAsking({ origin, host }: Asking): Site {
    if (origin !== undefined || host === undefined) return this.siteFor(origin)
    const alias = this.loopbackAlias(host)
    return alias === undefined ? this.publicSite : siteOf(alias)
  }

  private loopbackAlias(host: string): string | undefined {
    if (!this.rules.loopbackDevServers) return undefined
    const ours = new URL(this.rules.publicOrigin)
    let asked: URL
    try {
      asked = new URL(`${ours.protocol}//${host}`)
    } catch {
      return undefined
    }
    const alias = asked.origin
    const aliased =
      LOOPBACK_HOSTS.has(ours.hostname) &&
      LOOPBACK_HOSTS.has(asked.hostname) &&
      asked.port === ours.port &&
      asked.host === host.toLowerCase()
    return aliased && this.allows(alias) ? alias : undefined
  }
}
