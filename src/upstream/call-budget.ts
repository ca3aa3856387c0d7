// UPSTREAM_MAX_RPS (docs/operations.md): at most that many upstream calls in any one clock second, across
// the fleet when counted in Redis. A window per clock second, not a token bucket: a bucket lets a
// burst through on top of its rate, and the upstream's own limit would see that burst. Instances'
// clocks name the second, so their skew (NTP keeps it to milliseconds) is how far window edges differ.
import type { Clock } from '../clock.js'
import { problems, type QuotaRefusal } from '../problems.js'
import type { WindowCounter } from '../redis/window-counter.js'

/** A second's key outlives its second, so an instance whose clock lags still counts into it. */
const KEY_LIFE_MS = 5_000

export class CallBudget {
  /** Calls refused because the second's budget was spent. */
  refused = 0
  /** Calls counted in this instance's memory because the shared counter could not be reached. */
  unshared = 0

  constructor(
    private readonly perSecond: number,
    private readonly clock: Clock,
    private readonly counter: WindowCounter,
    /** Where calls are counted while `counter` is away: this instance then caps itself alone. */
    private readonly fallback: WindowCounter = counter,
  ) {}

  /** Takes one call from the current second; the refusal when the second's budget is spent. */
  async spend(): Promise<QuotaRefusal | undefined> {
    const key = `budget:${Math.floor(this.clock.now() / 1000)}`
    const hit = await this.counter.hit(key, KEY_LIFE_MS).catch(() => {
      this.unshared += 1
      return this.fallback.hit(key, KEY_LIFE_MS)
    })
    if (hit.count <= this.perSecond) return undefined
    this.refused += 1
    return problems.callBudgetSpent()
  }
}
