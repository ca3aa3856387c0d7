// Where Idempotency-Key records live. In memory here; the Redis store implements the same interface
// so that several gateway instances replay one record.
import { LRUCache } from 'lru-cache'

import type { ErrorCode, FieldError } from '../errors.js'

/** A final answer kept for replay: the created order's bytes, or the parts of a GatewayError. */
export type StoredResponse =
  | { kind: 'created'; body: string }
  | {
      kind: 'problem'
      code: ErrorCode
      detail: string
      retryable: boolean
      members: Record<string, unknown>
      errors?: FieldError[]
    }

export type IdempotencyRecord =
  { state: 'running'; fingerprint: string } | { state: 'done'; fingerprint: string; response: StoredResponse }

export interface IdempotencyStore {
  /** Claims `key` for a new request, or returns the record already there (claiming nothing). */
  claim(key: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined>
  /** Stores the final response of a claimed key. */
  complete(key: string, fingerprint: string, response: StoredResponse, ttlMs: number): Promise<void>
  /** Drops a claim whose response must not be stored (a retry could change it). */
  release(key: string): Promise<void>
}

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new LRUCache<string, IdempotencyRecord>({ max: 100_000, ttlAutopurge: false })

  async claim(key: string, fingerprint: string, ttlMs: number) {
    const existing = this.records.get(key)
    if (existing) return existing
    this.records.set(key, { state: 'running', fingerprint }, { ttl: ttlMs })
    return undefined
  }

  async complete(key: string, fingerprint: string, response: StoredResponse, ttlMs: number) {
    this.records.set(key, { state: 'done', fingerprint, response }, { ttl: ttlMs })
  }

  async release(key: string) {
    this.records.delete(key)
  }
}
