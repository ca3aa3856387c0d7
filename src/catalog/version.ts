// One loaded copy of the upstream catalog: its tokens for lookups and filters, and its bytes, served
// as they came, with their codings made before the copy is put in service.
import type { Token } from '../upstream/schemas.js'
import { Representation, type WorkCounters } from './representation.js'

export interface CatalogVersion {
  readonly tokens: readonly Token[]
  readonly byId: ReadonlyMap<number, Token>
  /** The body of GET /v1/tokens: the upstream's own bytes. */
  readonly catalog: Representation
  /** Clock time this copy was received. */
  readonly loadedAt: number
}

/**
 * Builds a version from the upstream's bytes, already checked against catalogSchema by the upstream
 * client. Unchanged bytes reuse the previous version's codings, so an unchanged refresh costs no
 * compression.
 */
export async function buildVersion(
  raw: Buffer,
  loadedAt: number,
  counters: WorkCounters,
  previous: CatalogVersion | undefined,
): Promise<CatalogVersion> {
  const catalog = new Representation(raw, counters)
  if (previous && previous.catalog.hash === catalog.hash) return { ...previous, loadedAt }
  // Parsed from the bytes rather than taken from the schema's output, so each object keeps the
  // upstream's key order and its undocumented fields when filtered bodies re-serialise it.
  const tokens = JSON.parse(raw.toString('utf8')) as Token[]
  await catalog.precompress()
  return { tokens, byId: new Map(tokens.map((t) => [t.id, t])), catalog, loadedAt }
}
