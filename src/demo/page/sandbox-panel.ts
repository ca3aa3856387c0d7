/// <reference lib="dom" />
// Sandbox mode only: buttons that move the shown order along through the sandbox's control routes,
// mounted on the gateway's own origin (deposit, confirmations, fill, failure, expiry).
import type { ShownOrder } from './order-view.js'
import type { Alerts } from './alert.js'
import { byId } from './dom.js'

type Action = 'deposit' | 'confirm' | 'complete' | 'fail' | 'expire'

/** Which actions the order's status allows, as the sandbox's lifecycle does. */
const ALLOWED: Record<Action, ReadonlySet<string>> = {
  deposit: new Set(['AWAITING_USER_DEPOSIT']),
  confirm: new Set(['AWAITING_USER_DEPOSIT_CONFIRMATIONS']),
  complete: new Set(['PROCESSING']),
  fail: new Set(['AWAITING_USER_DEPOSIT', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING']),
  expire: new Set(['AWAITING_USER_DEPOSIT']),
}

export class SandboxPanel {
  private readonly buttons: Array<[Action, HTMLButtonElement]>
  private order: ShownOrder | undefined

  constructor(
    private readonly controlUrl: string,
    private readonly alerts: Alerts,
  ) {
    const panel = byId('sandbox')
    panel.hidden = false
    this.buttons = Array.from(panel.querySelectorAll<HTMLButtonElement>('button[data-action]'), (b) => [
      b.dataset.action as Action,
      b,
    ])
    for (const [action, button] of this.buttons) button.addEventListener('click', () => void this.run(action))
  }

  showFor(order: ShownOrder): void {
    this.order = order
    for (const [action, button] of this.buttons) button.disabled = !ALLOWED[action].has(order.status)
  }

  private async run(action: Action): Promise<void> {
    const order = this.order
    if (!order) return
    for (const [, button] of this.buttons) button.disabled = true
    // Each action moves this order only (expiry too: not the sandbox's clock, which would lapse the
    // session and age every other order); the status stream reports the result.
    try {
      const res = await fetch(`${this.controlUrl}/orders/${encodeURIComponent(order.uuid)}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      if (!res.ok) throw await controlFailure(res)
      this.alerts.clear('sandbox')
    } catch (err) {
      this.alerts.show('sandbox', err)
      if (this.order) this.showFor(this.order)
    }
  }
}

/** The control routes answer `{error}`; a problem document passes through as it is. */
async function controlFailure(res: Response): Promise<unknown> {
  const body = (await res.json().catch(() => ({}))) as { code?: string; detail?: string; error?: string }
  if (body.code && body.detail) return body
  return { code: 'SANDBOX_REFUSED', detail: body.error ?? `The sandbox answered ${res.status}.` }
}
