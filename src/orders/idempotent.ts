// Idempotency-Key (docs/api.md, "Pricing and orders"): the first final answer to a key is kept with a fingerprint of the
// body and replayed to repeats; a different body or a repeat while the first runs is refused. Answers
// a retry could change (401, 409, 429, 5xx, a lost answer) are not kept, so the repeat runs anew.
import { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { IdempotencyStore, StoredResponse } from './idempotency-store.js'

export interface IdempotencyTerms {
  /** How long a final answer is replayed. */
  replayTtlMs: number
  /** How long a claim may stay "running" if the process dies mid-request. */
  claimTtlMs: number
}

export type Outcome = { replayed: boolean; body: string }

/** 201s and final client errors are replayed; answers a retry could change are not. */
const isFinal = (error: GatewayError) =>
  error.status >= 400 && error.status < 500 && error.status !== 401 && !error.retryable

function kept(error: GatewayError): StoredResponse {
  return {
    kind: 'problem',
    code: error.code,
    detail: error.detail,
    retryable: error.retryable,
    members: error.members,
    ...(error.errors ? { errors: error.errors } : {}),
  }
}

/** The stored answer again: the order's bytes, or the same error, rendered for this request. */
function replay(stored: StoredResponse): Outcome {
  if (stored.kind === 'created') return { replayed: true, body: stored.body }
  throw problems.replayed(stored)
}

/** Runs `create` at most once per key and fingerprint; throws what it throws, or the stored error. */
export async function createOnce(
  store: IdempotencyStore,
  terms: IdempotencyTerms,
  key: string,
  fingerprint: string,
  create: () => Promise<string>,
): Promise<Outcome> {
  const existing = await store.claim(key, fingerprint, terms.claimTtlMs)
  if (existing && existing.fingerprint !== fingerprint) {
    throw problems.idempotencyKeyReused()
  }
  if (existing?.state === 'running') {
    throw problems.idempotencyInProgress()
  }
  if (existing?.state === 'done') return replay(existing.response)

  let stored: StoredResponse | undefined
  try {
    const body = await create()
    stored = { kind: 'created', body }
    return { replayed: false, body }
  } catch (err) {
    if (err instanceof GatewayError && isFinal(err)) stored = kept(err)
    throw err
  } finally {
    if (stored) await store.complete(key, fingerprint, stored, terms.replayTtlMs)
    else await store.release(key)
  }
}
