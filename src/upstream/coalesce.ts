// Identical calls in flight at the same moment share one upstream call and its outcome. The call runs
// with the context of the caller that started it; every caller that joins keeps its own deadline (it
// stops waiting when its time is up) and its own upstream timing, and when the shared call ran out of
// the first caller's time, a joiner with time left asks again itself.
import type { Clock, Timer } from '../clock.js'
import { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { CallContext } from './call.js'

type Waited<T> = { value: T } | { error: unknown; ownDeadline: boolean }

/** A call in flight, and the deadline of the caller that started it (the call ends by then). */
interface Shared<T> {
  promise: Promise<T>
  deadline: number
}

export class Coalescer<T> {
  private readonly inFlight = new Map<string, Shared<T>>()

  constructor(private readonly clock: Clock) {}

  /** Not async: the caller that starts the call gets its promise itself, not one more wrapped around it. */
  run(key: string, ctx: CallContext, call: (ctx: CallContext) => Promise<T>): Promise<T> {
    const shared = this.inFlight.get(key)
    if (shared) return this.joinOrAskAgain(shared, key, ctx, call)
    const settled = () => this.inFlight.delete(key)
    const promise = call(ctx).then(
      (value) => {
        settled()
        return value
      },
      (error: unknown) => {
        settled()
        throw error
      },
    )
    this.inFlight.set(key, { promise, deadline: ctx.deadline })
    return promise
  }

  private async joinOrAskAgain(
    shared: Shared<T>,
    key: string,
    ctx: CallContext,
    call: (ctx: CallContext) => Promise<T>,
  ): Promise<T> {
    const waited = await this.join(shared, ctx)
    if ('value' in waited) return waited.value
    const theirTimeRanOut =
      !waited.ownDeadline &&
      waited.error instanceof GatewayError &&
      waited.error.code === 'UPSTREAM_TIMEOUT' &&
      this.clock.now() < ctx.deadline
    if (theirTimeRanOut) return this.run(key, ctx, call)
    throw waited.error
  }

  /** Waits for the shared call within this caller's own deadline, counting the wait as its upstream time. */
  private async join(shared: Shared<T>, ctx: CallContext): Promise<Waited<T>> {
    const started = performance.now()
    const outcome = shared.promise.then(
      (value): Waited<T> => ({ value }),
      (error: unknown): Waited<T> => ({ error, ownDeadline: false }),
    )
    let timer: Timer | undefined
    try {
      // The shared call ends by its starter's deadline: a joiner with no earlier deadline (the usual
      // one: same time limit, later arrival) needs no timer of its own.
      if (ctx.deadline >= shared.deadline) return await outcome
      const deadline = new Promise<Waited<T>>((resolve) => {
        timer = this.clock.setTimeout(
          () => resolve({ error: problems.upstreamTimeout(), ownDeadline: true }),
          Math.max(0, ctx.deadline - this.clock.now()),
        )
      })
      return await Promise.race([outcome, deadline])
    } finally {
      this.clock.clearTimeout(timer)
      if (ctx.timing) ctx.timing.ms += performance.now() - started
    }
  }
}
