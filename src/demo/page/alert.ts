/// <reference lib="dom" />
// The page's one error region (role="alert"): a failure shown by its problem document's code and
// detail. Each part of the page reports under its own name, so a part that succeeds later clears its
// own error without hiding another part's.
import { byId, el } from './dom.js'

export interface Shown {
  code: string
  detail: string
}

/** What to show for a failure: a GatewayProblem as it came, a wallet's refusal, anything else. */
export function describeFailure(err: unknown): Shown {
  if (typeof err === 'object' && err !== null) {
    const { code, detail, message } = err as { code?: unknown; detail?: unknown; message?: unknown }
    if (typeof code === 'string' && typeof detail === 'string') return { code, detail }
    // EIP-1193 errors carry a numeric code: 4001 is the user saying no.
    if (code === 4001) return { code: 'WALLET_REJECTED', detail: 'The wallet request was rejected.' }
    if (typeof message === 'string') return { code: 'CLIENT_ERROR', detail: message }
  }
  return { code: 'CLIENT_ERROR', detail: String(err) }
}

export class Alerts {
  private readonly region = byId('alert')
  private owner: string | undefined

  show(owner: string, err: unknown): void {
    const { code, detail } = describeFailure(err)
    this.owner = owner
    const dismiss = el('button', { type: 'button', class: 'small' }, 'Dismiss')
    dismiss.addEventListener('click', () => this.clear())
    this.region.replaceChildren(
      el('span', { class: 'code' }, code),
      el('span', { class: 'detail' }, detail),
      dismiss,
    )
  }

  /** Clears the region if its error is `owner`'s (or whatever it shows, without an owner). */
  clear(owner?: string): void {
    if (owner !== undefined && owner !== this.owner) return
    this.owner = undefined
    this.region.replaceChildren()
  }
}
