// SIWX challenge nonces: single-use, expiring after the configured lifetime on the sandbox clock.
// Checking a nonce does not use it up; only a successful verify does.
import { randomBytes } from 'node:crypto'
import type { SandboxClock } from '../clock.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

export class Nonces {
  private readonly expiries = new Map<string, number>()

  constructor(
    private readonly clock: SandboxClock,
    private readonly ttlMs: number,
  ) {}

  issue(): string {
    this.forgetExpired()
    const nonce = Array.from(randomBytes(24), (byte) => ALPHABET[byte % ALPHABET.length]).join('')
    this.expiries.set(nonce, this.clock.now() + this.ttlMs)
    return nonce
  }

  isLive(nonce: string): boolean {
    const expiresAt = this.expiries.get(nonce)
    return expiresAt !== undefined && expiresAt > this.clock.now()
  }

  consume(nonce: string): void {
    this.expiries.delete(nonce)
  }

  private forgetExpired(): void {
    const now = this.clock.now()
    for (const [nonce, expiresAt] of this.expiries) if (expiresAt <= now) this.expiries.delete(nonce)
  }
}
