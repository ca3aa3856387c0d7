// The gates a call passes before it goes out, in order: the pause after an upstream 429, the circuit
// breaker, the call budget (UPSTREAM_MAX_RPS), the deadline. A call they keep back is a refusal,
// counted apart from the attempts that were sent.
import type { Clock } from '../clock.js'
import type { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { CircuitBreaker } from './breaker.js'
import type { CallBudget } from './call-budget.js'
import type { CallContext } from './call.js'
import type { Classified, Operation } from './classify.js'
import type { CoolDown } from './cool-down.js'

/** Why a call was not sent. */
export type RefusalReason = 'breaker' | 'cool_down' | 'budget' | 'deadline'

/** A call the gates kept from going out: why, and the problem answered instead. */
interface Refusal {
  reason: RefusalReason
  error: GatewayError
}

/** The tenant key's quota as metrics show it. */
export interface QuotaStats {
  budgetRefused: number
  budgetUnshared: number
  coolDownMs: number
  coolDowns: number
  coolDownRefused: number
}

export interface GateOptions {
  clock: Clock
  breaker: CircuitBreaker
  coolDown: CoolDown
  /** UPSTREAM_MAX_RPS; undefined: calls are not counted. */
  budget?: CallBudget
  /** A call the breaker, the cool-down, the budget or the spent deadline kept from going out. */
  refused?: (operation: Operation, reason: RefusalReason) => void
}

export class CallGates {
  constructor(private readonly options: GateOptions) {}

  /**
   * The time the call has left, or the refusal it gets instead (already counted). Only the budget
   * may need Redis: without one, nothing here is awaited.
   */
  async pass(ctx: CallContext, operation: Operation): Promise<number | Classified> {
    const { budget } = this.options
    const admitted = this.paused() ?? this.admit(ctx, budget && (await budget.spend()))
    return typeof admitted === 'number' ? admitted : this.refuse(operation, admitted)
  }

  /** For a stream: the pause after a 429 and the breaker only (a stream is no call of the budget's). */
  passStream(): Classified | undefined {
    const paused = this.paused()
    return paused && this.refuse('stream', paused)
  }

  quotaStats(): QuotaStats {
    const { budget, coolDown } = this.options
    return {
      budgetRefused: budget?.refused ?? 0,
      budgetUnshared: budget?.unshared ?? 0,
      coolDownMs: coolDown.remainingMs(),
      coolDowns: coolDown.started,
      coolDownRefused: coolDown.refused,
    }
  }

  /** The time the call has left, or why it may not go out (over the budget, past the deadline). */
  private admit(ctx: CallContext, overBudget: GatewayError | undefined): number | Refusal {
    const remaining = ctx.deadline - this.options.clock.now()
    if (!overBudget && remaining > 0) return remaining
    // No call, so no verdict; but this may have been the breaker's half-open probe.
    this.options.breaker.settle()
    return overBudget
      ? { reason: 'budget', error: overBudget }
      : { reason: 'deadline', error: problems.upstreamTimeout() }
  }

  /** The gates every call and stream passes: the pause after an upstream 429, then the breaker. */
  private paused(): Refusal | undefined {
    const cooling = this.options.coolDown.refusal()
    if (cooling) return { reason: 'cool_down', error: cooling }
    if (!this.options.breaker.allow()) return { reason: 'breaker', error: problems.breakerOpen() }
    return undefined
  }

  private refuse(operation: Operation, refusal: Refusal): Classified {
    this.options.refused?.(operation, refusal.reason)
    return { error: refusal.error, unclassified: false }
  }
}
