// The pause after an upstream 429 (docs/operations.md): no call leaves until the upstream's Retry-After
// has passed, on any instance. The end of the pause is kept here and checked before every call at no
// cost; with Redis it is also written to a shared key, which every instance reads every pollMs, so a
// 429 seen by one instance reaches the others within one poll (the only calls that can still reach
// the limited upstream are the ones started in that gap).
import type { Redis } from 'ioredis'
import type { Clock, Timer } from '../clock.js'
import { problems, type QuotaRefusal } from '../problems.js'

export interface SharedCoolDown {
  client: Redis
  key: string
  pollMs: number
}

export class CoolDown {
  /** Upstream 429s seen by this instance. */
  started = 0
  /** Calls refused while cooling down. */
  refused = 0
  private until = 0
  private polling = false
  private readonly timer: Timer | undefined

  constructor(
    private readonly clock: Clock,
    private readonly shared?: SharedCoolDown,
  ) {
    if (shared) this.timer = clock.setInterval(() => this.poll(shared), shared.pollMs)
    this.timer?.unref()
  }

  /** The answer to give instead of calling while the pause lasts; undefined when calls may go out. */
  refusal(): QuotaRefusal | undefined {
    const left = this.remainingMs()
    if (left === 0) return undefined
    this.refused += 1
    return problems.coolingDown(Math.ceil(left / 1000))
  }

  /** The upstream answered 429: pause here at once, and on every instance through Redis. */
  start(seconds: number): void {
    this.started += 1
    const until = this.clock.now() + seconds * 1000
    if (until <= this.until) return
    this.until = until
    // A Redis that is away leaves the pause to this instance alone; its link reports the outage.
    this.shared?.client.set(this.shared.key, String(until), 'PX', seconds * 1000).catch(() => {})
  }

  remainingMs(): number {
    return Math.max(0, this.until - this.clock.now())
  }

  close(): void {
    this.clock.clearInterval(this.timer)
  }

  private poll(shared: SharedCoolDown) {
    if (this.polling) return
    this.polling = true
    shared.client
      .get(shared.key)
      .then((value) => {
        this.until = Math.max(this.until, Number(value ?? 0) || 0)
      })
      .catch(() => {})
      .finally(() => {
        this.polling = false
      })
  }
}
