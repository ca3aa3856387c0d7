// Bodies derived from a catalog version (a filter's result, one token, the chains), serialised on
// first use and kept in a small LRU keyed by the version's content hash, so each is built once per
// version however often it is asked for. Their codings are made lazily, once each, with them.
import { LRUCache } from 'lru-cache'
import { Representation, type WorkCounters } from './representation.js'
import type { CatalogVersion } from './version.js'

const MAX_BODIES = 256
/** Bounds memory: a filter can select most of the 650 KB catalog. */
const MAX_BYTES = 64 * 1024 * 1024

export class DerivedBodies {
  private readonly bodies = new LRUCache<string, Representation>({
    max: MAX_BODIES,
    maxSize: MAX_BYTES,
    sizeCalculation: (body) => Math.max(1, body.identity.length),
  })

  constructor(private readonly work: WorkCounters) {}

  get(version: CatalogVersion, key: string, make: () => unknown): Representation {
    const id = `${version.catalog.hash} ${key}`
    let body = this.bodies.get(id)
    if (!body) {
      this.work.serializations += 1
      body = new Representation(Buffer.from(JSON.stringify(make())), this.work)
      this.bodies.set(id, body)
    }
    return body
  }
}
