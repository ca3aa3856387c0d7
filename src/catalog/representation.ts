// A JSON body as the catalog routes serve it: the identity bytes, their strong ETag, and the br and
// gzip codings, each made once (asynchronously, in libuv's pool) and then reused for every request.
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

export type Coding = 'br' | 'gzip' | 'identity'

/** Bodies under one packet gain nothing from compression; they are served as they are. */
const MIN_COMPRESSIBLE_BYTES = 1400
/** Moderate: close to the best ratio below quality 11, at about 15 ms for the full catalog. */
const BROTLI_QUALITY = 6
const GZIP_LEVEL = 9

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Counts the expensive work, so a benchmark (and the metrics) can show it happens once per version. */
export interface WorkCounters {
  compressions: number
  serializations: number
}

function compress(body: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: GZIP_LEVEL })
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
}

export class Representation {
  /** Content hash of the identity bytes: equal bodies have equal tags, across versions too. */
  readonly hash: string
  /** The tags, made once per body rather than once per request. */
  private readonly etags: Record<Coding, string>
  private readonly coded = new Map<'br' | 'gzip', Promise<Buffer>>()
  /** The finished codings, handed out without a promise on the hot path. */
  private readonly ready = new Map<'br' | 'gzip', Buffer>()

  constructor(
    readonly identity: Buffer,
    private readonly counters: WorkCounters,
  ) {
    this.hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27)
    this.etags = { identity: `"${this.hash}"`, br: `"${this.hash}-br"`, gzip: `"${this.hash}-gzip"` }
  }

  get compressible(): boolean {
    return this.identity.length >= MIN_COMPRESSIBLE_BYTES
  }

  /** The coding actually served when the client asked for `wanted`. */
  codingFor(wanted: Coding): Coding {
    return this.compressible ? wanted : 'identity'
  }

  /** A strong validator per coding: the br and gzip bytes are different representations (RFC 9110 §8.8.3). */
  etag(coding: Coding): string {
    return this.etags[coding]
  }

  body(coding: Coding): Promise<Buffer> | Buffer {
    if (coding === 'identity') return this.identity
    const done = this.ready.get(coding)
    if (done) return done
    let pending = this.coded.get(coding)
    if (!pending) {
      this.counters.compressions += 1
      pending = compress(this.identity, coding)
      pending.then(
        (bytes) => this.ready.set(coding, bytes),
        // A failed compression is not remembered: the next request tries again.
        () => this.coded.delete(coding),
      )
      this.coded.set(coding, pending)
    }
    return pending
  }

  /** Makes both codings now, so the first requests of a new version find them ready. */
  async precompress(): Promise<this> {
    if (this.compressible) await Promise.all([this.body('br'), this.body('gzip')])
    return this
  }
}
