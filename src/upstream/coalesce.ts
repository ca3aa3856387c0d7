// Identical calls in flight at the same moment share one upstream call and its outcome.
export class Coalescer<T> {
  private readonly inFlight = new Map<string, Promise<T>>()

  run(key: string, call: () => Promise<T>): Promise<T> {
    const pending = this.inFlight.get(key)
    if (pending) return pending
    const started = call().finally(() => this.inFlight.delete(key))
    this.inFlight.set(key, started)
    return started
  }
}
