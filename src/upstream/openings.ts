// How many upstream status streams this instance is opening (connect + answer head) at once. A fleet
// taking over thousands of watches would otherwise open every stream at the same moment and fill the
// upstream's listen queue. Openings past the bound wait their turn, first in first out, except that
// a stream some client is reading (urgent) goes before every background one (the watch's).

interface Waiter {
  go: () => void
  /** Taken out of the queue by its abort signal. */
  gone: boolean
}

/** A first-in first-out queue whose head is taken without moving the rest. */
class Line {
  private items: Waiter[] = []
  private head = 0

  push(w: Waiter): void {
    this.items.push(w)
  }

  shift(): Waiter | undefined {
    while (this.head < this.items.length) {
      const w = this.items[this.head++]!
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head)
        this.head = 0
      }
      if (!w.gone) return w
    }
    return undefined
  }
}

export class Openings {
  private opening = 0
  private readonly urgent = new Line()
  private readonly background = new Line()

  constructor(private readonly limit: number) {}

  /** Waits for a place; call the returned function once the opening is over (head or failure). */
  async enter(urgent: boolean, signal: AbortSignal): Promise<() => void> {
    if (this.opening >= this.limit) await this.wait(urgent ? this.urgent : this.background, signal)
    else this.opening++
    let left = false
    return () => {
      if (left) return
      left = true
      this.next()
    }
  }

  /** The place just freed goes to the next waiting opening, if any. */
  private next(): void {
    const w = this.urgent.shift() ?? this.background.shift()
    if (w) w.go()
    else this.opening--
  }

  private wait(line: Line, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      signal.throwIfAborted()
      const w: Waiter = {
        gone: false,
        go: () => {
          signal.removeEventListener('abort', abort)
          resolve()
        },
      }
      const abort = () => {
        w.gone = true
        reject(signal.reason)
      }
      signal.addEventListener('abort', abort, { once: true })
      line.push(w)
    })
  }
}
