// The last good body of each path, as checked. A resource read again unchanged (an order polled while
// its swap runs, or followed by its status stream) comes back as the same bytes, whose parse and check
// give the same value: they are done once per change of the resource, not once per read. The value is
// shared by everyone who reads it, as a coalesced read's already is, and nobody changes it.
import { LRUCache } from 'lru-cache'
import type { z } from 'zod'

export class CheckedBodies<T> {
  private readonly last: LRUCache<string, { raw: Buffer; value: T }>

  /** `max`: paths remembered, the least recently read forgotten first. */
  constructor(max: number) {
    this.last = new LRUCache({ max })
  }

  /** `raw` checked against `schema`: the value held for `path` when the bytes are the same. */
  check(
    path: string,
    raw: Buffer,
    schema: z.ZodType<T>,
    parse: (raw: Buffer) => unknown,
  ): z.ZodSafeParseResult<T> {
    const held = this.last.get(path)
    if (held?.raw.equals(raw)) return { success: true, data: held.value }
    const checked = schema.safeParse(parse(raw))
    // A copy: the bytes undici read may be a view of a larger buffer, which must not stay alive here.
    if (checked.success) this.last.set(path, { raw: Buffer.from(raw), value: checked.data })
    return checked
  }
}
