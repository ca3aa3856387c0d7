// A request's identity for Idempotency-Key: the same key must come with the same body.
import { createHash } from 'node:crypto'

/** JSON with sorted keys, so {a,b} and {b,a} are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export const fingerprintOf = (body: unknown): string =>
  createHash('sha256').update(canonical(body)).digest('base64url')
