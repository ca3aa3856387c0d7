/// <reference lib="dom" />
// The page's one error region (role="alert"): a failure shown by its problem document's code and
// detail. Each part of the page reports under its own name, so a part that succeeds later clears its
// own error without hiding another part's; an error whose cause is gone (signing in answers a
// missing or lapsed session) is cleared by code. The region sticks to the top of the screen, so an
// error about a field scrolls that field into sight below it rather than under it.
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

/** Space kept between the region and a field it is about. */
const FIELD_GAP_PX = 12

export class Alerts {
  private readonly region = byId('alert')
  private owner: string | undefined
  private code: string | undefined

  /** Shows `err`; with the `field` it is about, scrolls that field into sight, clear of the region. */
  show(owner: string, err: unknown, field?: HTMLElement): void {
    const { code, detail } = describeFailure(err)
    this.owner = owner
    this.code = code
    const dismiss = el('button', { type: 'button', class: 'small' }, 'Dismiss')
    dismiss.addEventListener('click', () => this.clear())
    this.region.replaceChildren(
      el('span', { class: 'code' }, code),
      el('span', { class: 'detail' }, detail),
      dismiss,
    )
    if (field) this.reveal(field)
  }

  /** Clears the region if its error is `owner`'s (or whatever it shows, without an owner). */
  clear(owner?: string): void {
    if (owner !== undefined && owner !== this.owner) return
    this.owner = undefined
    this.code = undefined
    this.region.replaceChildren()
  }

  /** Clears the region if its error's code is one of `codes`, whichever part showed it. */
  clearCodes(codes: ReadonlySet<string>): void {
    if (this.code !== undefined && codes.has(this.code)) this.clear()
  }

  /**
   * Scrolls the least that puts `field`, with its label and hint, below the region (stuck at the
   * top) and inside the screen.
   */
  private reveal(field: HTMLElement): void {
    const top = Math.max(this.region.getBoundingClientRect().bottom, 0) + FIELD_GAP_PX
    const box = (field.closest('.field') ?? field).getBoundingClientRect()
    if (box.top < top) window.scrollBy(0, box.top - top)
    else if (box.bottom > window.innerHeight)
      window.scrollBy(0, box.bottom - window.innerHeight + FIELD_GAP_PX)
  }
}
