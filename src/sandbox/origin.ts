// The upstream's cross-site rule, checked before authentication: a request that carries an
// Origin must come from the service's own domain (or a subdomain) or from localhost with a port.
// The status stream is stricter: the service's own domain and localhost only.

function isLocalhostWithPort(url: URL): boolean {
  return url.hostname === 'localhost' && url.port !== ''
}

export function isOriginAllowed(origin: string, serviceDomain: string, streamRoute: boolean): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin !== origin) return false
  if ((url.protocol === 'http:' || url.protocol === 'https:') && isLocalhostWithPort(url)) return true
  if (url.protocol !== 'https:' || url.port !== '') return false
  if (url.hostname === serviceDomain) return true
  return !streamRoute && url.hostname.endsWith(`.${serviceDomain}`)
}
