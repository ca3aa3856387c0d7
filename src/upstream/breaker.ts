// A circuit breaker over unclassified upstream failures: after `threshold` in a row it opens for
// `openMs`, answering at once; then one probe goes through, and its outcome closes or reopens it.
import type { Clock } from '../clock.js'

export type BreakerState = 'closed' | 'open' | 'half-open'

export interface BreakerOptions {
  threshold: number
  openMs: number
}

export class CircuitBreaker {
  private failures = 0
  private openedAt = 0
  private probing = false
  private state: BreakerState = 'closed'

  constructor(
    private readonly options: BreakerOptions,
    private readonly clock: Clock,
    private readonly onChange: (state: BreakerState) => void = () => {},
  ) {}

  /** Whether a call may go out now. In half-open state only one probe is let through at a time. */
  allow(): boolean {
    if (this.state === 'closed') return true
    if (this.state === 'open' && this.clock.now() - this.openedAt >= this.options.openMs)
      this.set('half-open')
    if (this.state === 'half-open' && !this.probing) {
      this.probing = true
      return true
    }
    return false
  }

  success(): void {
    this.failures = 0
    this.probing = false
    if (this.state !== 'closed') this.set('closed')
  }

  failure(): void {
    this.probing = false
    this.failures += 1
    if (this.state === 'half-open' || this.failures >= this.options.threshold) {
      this.openedAt = this.clock.now()
      this.set('open')
    }
  }

  /** Ends a probe that produced neither verdict (e.g. a classified client error). */
  settle(): void {
    this.probing = false
  }

  /** Undefined while calls flow; else ms until a probe may go (0: it may go now, or one is out). */
  pausedForMs(): number | undefined {
    if (this.state === 'closed') return undefined
    return Math.max(0, this.openedAt + this.options.openMs - this.clock.now())
  }

  get current(): BreakerState {
    return this.state
  }

  private set(state: BreakerState): void {
    this.state = state
    this.onChange(state)
  }
}
