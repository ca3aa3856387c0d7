// Sealing session payloads with iron (AES-256-CBC, then HMAC-SHA256 over the whole seal, checked in
// constant time before anything is decrypted). Key rotation: the first secret seals, every secret
// unseals. Each seal names its secret by a fingerprint, so reordering or adding secrets never breaks
// sessions sealed earlier, and the secret itself never appears in the seal.
import { createHash } from 'node:crypto'
import { defaults, seal, unseal } from 'iron-webcrypto'
import { LRUCache } from 'lru-cache'

/** Browsers drop cookies over 4096 bytes; nothing longer can be a session of ours. */
export const MAX_SEALED_LENGTH = 4096
/**
 * Unsealing derives two keys per call (about 0.7 ms of CPU), and a signed-in client presents the same
 * seal on every request: intact seals are remembered by their exact text. Only what unsealed is kept,
 * so forged values cannot fill the cache; a few thousand entries of about 2 KB each.
 */
const OPENED_CACHE_SIZE = 5_000

interface Secret {
  id: string
  secret: string
}

const fingerprint = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 12)

export class SessionSealer {
  private readonly sealing: Secret
  private readonly unsealing: Record<string, Secret>
  private readonly opened = new LRUCache<string, { payload: unknown }>({ max: OPENED_CACHE_SIZE })

  constructor(secrets: readonly string[]) {
    const keyed = secrets.map((secret) => ({ id: fingerprint(secret), secret }))
    const first = keyed[0]
    if (!first) throw new Error('SessionSealer needs at least one secret')
    this.sealing = first
    this.unsealing = Object.fromEntries(keyed.map((k) => [k.id, k]))
  }

  seal(payload: unknown): Promise<string> {
    return seal(payload, this.sealing, defaults)
  }

  /** The payload, or undefined for anything tampered, truncated, foreign or not a seal at all. */
  async unseal(sealed: string): Promise<unknown> {
    if (sealed.length > MAX_SEALED_LENGTH) return undefined
    const known = this.opened.get(sealed)
    if (known) return structuredClone(known.payload)
    try {
      const payload = await unseal(sealed, this.unsealing, defaults)
      this.opened.set(sealed, { payload })
      return structuredClone(payload)
    } catch {
      return undefined
    }
  }
}
