// Demo mode: walks every new order through deposit, confirmations, settlement and completion on
// the sandbox's clock, a few seconds per step, so a frontend can be watched end to end without a test
// driving it. A step is skipped if the order has meanwhile left the state it expects.
import type { Clock, Timer } from '../../clock.js'
import type { OrderStore } from './store.js'

export const AUTO_STEP_MS = 3000

type Step = (store: OrderStore, uuid: string) => void

const STEPS: Step[] = [
  (store, uuid) => store.deposit(uuid),
  (store, uuid) => store.confirm(uuid),
  (store, uuid) => {
    const order = store.find(uuid)
    if (order?.depositEstSettleAmount != null) store.progress(uuid, order.depositEstSettleAmount / 2)
  },
  (store, uuid) => store.complete(uuid),
]

export class AutoAdvance {
  private readonly timers = new Set<Timer>()

  constructor(
    private readonly store: OrderStore,
    private readonly clock: Clock,
    private readonly stepMs = AUTO_STEP_MS,
  ) {}

  start(uuid: string, step = 0): void {
    const run = STEPS[step]
    if (!run) return
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer)
      try {
        run(this.store, uuid)
      } catch {
        return // the order moved on without us (failed, expired): stop walking it
      }
      this.start(uuid, step + 1)
    }, this.stepMs)
    this.timers.add(timer)
  }

  stop(): void {
    for (const timer of this.timers) this.clock.clearTimeout(timer)
    this.timers.clear()
  }
}
