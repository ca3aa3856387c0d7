// Unfunded orders by the time they expire: a binary min-heap, so finding the due ones costs what is
// due (and log n each), not a look at every order the sandbox holds.
import type { CreatedOrder } from '../resources.js'

interface Entry {
  at: number
  order: CreatedOrder
}

export class DueQueue {
  private readonly heap: Entry[] = []

  add(order: CreatedOrder, at: number): void {
    const heap = this.heap
    heap.push({ at, order })
    let i = heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (heap[parent]!.at <= heap[i]!.at) break
      ;[heap[parent], heap[i]] = [heap[i]!, heap[parent]!]
      i = parent
    }
  }

  /** Takes out every order due at `now`, in no particular order. */
  takeDue(now: number): CreatedOrder[] {
    const due: CreatedOrder[] = []
    while (this.heap.length > 0 && this.heap[0]!.at <= now) due.push(this.pop().order)
    return due
  }

  private pop(): Entry {
    const heap = this.heap
    const top = heap[0]!
    const last = heap.pop()!
    if (heap.length === 0) return top
    heap[0] = last
    for (let i = 0; ;) {
      const left = 2 * i + 1
      const right = left + 1
      let least = i
      if (left < heap.length && heap[left]!.at < heap[least]!.at) least = left
      if (right < heap.length && heap[right]!.at < heap[least]!.at) least = right
      if (least === i) return top
      ;[heap[least], heap[i]] = [heap[i]!, heap[least]!]
      i = least
    }
  }
}
