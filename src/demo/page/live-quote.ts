/// <reference lib="dom" />
// The quote, live: watched through the client's watchQuote (the gateway refreshes it once for every
// page watching the same quote, and the stream pauses while the tab is hidden), shown with its age
// ("updated 3 s ago"). A failed refresh keeps the last price on screen, marked stale, with the problem
// in the alert region, until a fresh quote comes.
import type { LiveQuote as Quote, Token, Watching } from 'swap-gateway-client'
import type { Alerts } from './alert.js'
import type { Client } from './client.js'
import { el } from './dom.js'
import { amount as formatAmount, dollars } from './format.js'

/** "just now", "3 s ago", "2 min ago". */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 1) return 'just now'
  if (s < 60) return `${s} s ago`
  return `${Math.floor(s / 60)} min ago`
}

export class LiveQuoteView {
  private watching: Watching | undefined
  /** Epoch ms of the quote shown, on the gateway's clock (a browser's may differ: ages never go below 0). */
  private quotedAt: number | undefined
  private readonly ageLine = el('p', { class: 'age', 'data-testid': 'quote-age' })

  constructor(
    private readonly client: Client,
    private readonly box: HTMLElement,
    private readonly alerts: Alerts,
    /** The input a problem is about, which its alert leaves in sight. */
    private readonly fieldOf: (problem: unknown) => HTMLInputElement | undefined = () => undefined,
  ) {
    setInterval(() => this.showAge(), 1000)
  }

  watch(from: Token, to: Token, amount: string): void {
    this.stop()
    this.box.classList.add('loading')
    const watching = this.client.watchQuote(
      { depositTokenId: from.id, settleTokenId: to.id, amount, amountIsDeposit: true },
      {
        onQuote: (quote) => this.show(quote, from, to),
        onProblem: (problem) => {
          this.box.classList.remove('loading')
          if (this.quotedAt === undefined) {
            this.box.replaceChildren(el('p', { class: 'muted' }, 'No quote for this pair and amount.'))
          } else this.box.classList.add('stale')
          this.alerts.show('quote', problem, this.fieldOf(problem))
        },
        onEnd: () => {
          this.ageLine.textContent = `${this.ageText()} · paused: press Get quote to go on`
          this.quotedAt = undefined
        },
      },
    )
    this.watching = watching
  }

  stop(): void {
    this.watching?.close()
    this.watching = undefined
    this.quotedAt = undefined
    this.box.classList.remove('stale')
  }

  private show(quote: Quote, from: Token, to: Token): void {
    this.alerts.clear('quote')
    this.quotedAt = Date.parse(quote.quotedAt)
    this.box.classList.remove('loading', 'stale')
    this.box.replaceChildren(
      el('p', { class: 'receive' }, `≈ ${formatAmount(quote.settleAmount, to.symbol)}`),
      el(
        'p',
        { class: 'rate' },
        `1 ${from.symbol} = ${formatAmount(quote.exchangeRate, to.symbol)} · you send ${dollars(quote.depositTokenUsdValue)}`,
      ),
      this.ageLine,
    )
    this.showAge()
  }

  private ageText(): string {
    return this.quotedAt === undefined ? '' : `Live · updated ${age(Date.now() - this.quotedAt)}`
  }

  private showAge(): void {
    if (this.quotedAt !== undefined) this.ageLine.textContent = this.ageText()
  }
}
