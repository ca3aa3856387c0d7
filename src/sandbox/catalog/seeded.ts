// Deterministic pseudo-randomness for the catalog: the same seed gives the same bytes on every
// run and machine, so token ids, addresses and prices are stable across sandbox restarts.
import { createHash } from 'node:crypto'
import type { ByteSource } from '../addresses/mint.js'

export function seededBytes(seed: string): ByteSource {
  let counter = 0
  return (length) => {
    const out = new Uint8Array(length)
    for (let filled = 0; filled < length; filled += 32) {
      const block = createHash('sha256').update(`${seed}#${counter++}`).digest()
      out.set(block.subarray(0, Math.min(32, length - filled)), filled)
    }
    return out
  }
}

/** A stream of numbers in [0, 1) derived from the seed. */
export function seededUnits(seed: string): () => number {
  const bytes = seededBytes(seed)
  return () => Buffer.from(bytes(6)).readUIntBE(0, 6) / 2 ** 48
}
