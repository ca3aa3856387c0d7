// Where the gateway's log lines go: joined into batches of about 4 KiB, each written synchronously by
// sonic-boom (pino's destination), or within a quarter second when traffic is light.
//
// Why not pino's own destination as it is: asynchronously (`sync: false`), every write goes through
// libuv's thread pool, and that hand-off costs more CPU per line than building the line (CPU per
// cached-catalog 304: 46 µs with it, 40 µs with batches; docs/performance.md); with its own buffering
// (`minLength`), sonic-boom measures its whole pending buffer again on every line. Joined here, each
// batch is measured and written once.
import pino, { type DestinationStream } from 'pino'

const BATCH_CHARS = 4096
const FLUSH_EVERY_MS = 250

export class LogBatches implements DestinationStream {
  private lines: string[] = []
  private chars = 0
  private readonly out: ReturnType<typeof pino.destination>
  private readonly timer: NodeJS.Timeout

  /** `dest`: a file descriptor (1, standard output) or a file's path. */
  constructor(
    private readonly dest: number | string,
    flushEveryMs = FLUSH_EVERY_MS,
  ) {
    this.out = pino.destination({ dest, sync: true })
    // On the process's timers, not the app's clock: flushing lines out is plumbing, not behaviour.
    this.timer = setInterval(() => this.flush(), flushEveryMs).unref()
  }

  write(line: string): void {
    this.lines.push(line)
    this.chars += line.length
    if (this.chars >= BATCH_CHARS) this.flush()
  }

  /** Writes the pending lines before returning; pino's `logger.flush()` calls it too. */
  flush(done?: (err?: Error) => void): void {
    if (this.lines.length > 0) {
      const text = this.lines.join('')
      this.lines = []
      this.chars = 0
      this.out.write(text)
    }
    done?.()
  }

  /** The last lines written, and no timer left behind: when the app closes. */
  close(): void {
    clearInterval(this.timer)
    this.flush()
    // A file descriptor stays open: it is the process's (standard output), not ours.
    if (typeof this.dest === 'string') this.out.end()
  }
}
