// TRUST_PROXY: which peers are proxies whose X-Forwarded-For names the client. Only their addresses
// (or ranges) can say so; a hop count cannot tell a proxy from a client that connects directly (and
// Fastify treats a number as "trust nobody"), so it is refused rather than silently ignored.
import { isIP } from 'node:net'
import { z } from 'zod'

/** proxy-addr's names for the reserved ranges, accepted as well as addresses. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

const ACCEPTED =
  'comma-separated proxy addresses or CIDR ranges (10.0.0.0/8, fd00::/8, loopback), or true when every peer is a proxy'

function validEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true
  const [address = '', bits, ...rest] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

/** false (no proxy: the peer is the client), true (every peer is a proxy), or the proxies. */
export const trustedProxies = z
  .string()
  .optional()
  .transform((text, ctx): boolean | string[] => {
    const value = (text ?? '').trim()
    if (value === '' || value === 'false') return false
    if (value === 'true') return true
    if (/^\d+$/.test(value)) {
      ctx.addIssue({
        code: 'custom',
        message: `a hop count cannot tell a proxy from a client and is not accepted; use ${ACCEPTED}`,
      })
      return z.NEVER
    }
    const entries = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    const bad = entries.filter((entry) => !validEntry(entry))
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${bad.map((b) => `"${b}"`).join(', ')}: expected ${ACCEPTED}`,
      })
      return z.NEVER
    }
    return entries
  })
export type TrustedProxies = z.output<typeof trustedProxies>
