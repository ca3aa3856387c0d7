/// <reference lib="dom" />
// The swap form: two token pickers, the amount with the pair's limits, a live quote (live-quote.ts,
// watched again as the form changes), the receiving address, and create with an Idempotency-Key
// kept for as long as the same order is being asked for, so a repeated click cannot make two orders.
import type { OrderCreated, SwapLimits, Token } from 'swap-gateway-client'
import type { Alerts } from './alert.js'
import { type Client, newKey } from './client.js'
import { byId, el } from './dom.js'
import { amount as formatAmount } from './format.js'
import { boundsOf, outside } from './limits.js'
import { LiveQuoteView } from './live-quote.js'
import { TokenPicker } from './token-picker.js'

const QUOTE_DELAY_MS = 400

/** The form's fields as a deep link names them: `/?from=<tokenId>&to=<tokenId>&amount=<n>&address=<addr>`. */
export interface Prefill {
  from?: number
  to?: number
  amount?: string
  address?: string
}

export function prefillOf(search: string): Prefill {
  const q = new URLSearchParams(search)
  const id = (name: string) => {
    const n = Number(q.get(name))
    return Number.isInteger(n) && n > 0 ? n : undefined
  }
  return {
    from: id('from'),
    to: id('to'),
    amount: q.get('amount') ?? undefined,
    address: q.get('address') ?? undefined,
  }
}

export class SwapForm {
  private readonly from = new TokenPicker('from', () => this.changed())
  private readonly to = new TokenPicker('to', () => this.changed())
  private readonly amount = byId<HTMLInputElement>('amount')
  private readonly address = byId<HTMLInputElement>('address')
  private readonly limits = byId('limits')
  private readonly quoteBox = byId('quote')
  private readonly live: LiveQuoteView
  private readonly createButton = byId<HTMLButtonElement>('create')
  private readonly limitsByPair = new Map<string, Promise<SwapLimits>>()
  private quoteTimer: ReturnType<typeof setTimeout> | undefined
  private asked = 0
  /** The create body last sent and its key: the same body again reuses the key. */
  private pending: { body: string; key: string } | undefined

  constructor(
    private readonly client: Client,
    private readonly alerts: Alerts,
    private readonly onCreated: (order: OrderCreated) => void,
  ) {
    byId('swap').addEventListener('submit', (event) => {
      event.preventDefault()
      void this.create()
    })
    byId('get-quote').addEventListener('click', () => void this.quote())
    byId('flip').addEventListener('click', () => this.flip())
    this.amount.addEventListener('input', () => this.changed())
    this.address.addEventListener('input', () => this.remember())
    this.live = new LiveQuoteView(client, this.quoteBox, alerts, (err) => this.fieldOf(err))
  }

  async load(prefill: Prefill): Promise<void> {
    this.amount.value = prefill.amount ?? ''
    this.address.value = prefill.address ?? ''
    let tokens: Token[]
    try {
      tokens = await this.client.listTokens({ tradable: true })
    } catch (err) {
      this.alerts.show('catalog', err)
      return
    }
    const fallback = (symbol: string, network: string) =>
      tokens.find((t) => t.symbol === symbol && t.blockchain.network === network)?.id
    this.from.load(tokens, prefill.from ?? fallback('USDT', 'ETH'))
    this.to.load(tokens, prefill.to ?? fallback('ETH', 'ETH'))
    this.changed()
  }

  private flip(): void {
    const [from, to] = [this.from.selected?.id, this.to.selected?.id]
    this.from.choose(to)
    this.to.choose(from)
    this.changed()
  }

  private changed(): void {
    this.remember()
    const to = this.to.selected
    this.address.placeholder = to
      ? `A ${to.blockchain.network} address on ${to.blockchain.name}`
      : 'Where the tokens you receive are sent'
    clearTimeout(this.quoteTimer)
    this.quoteTimer = setTimeout(() => void this.quote(), QUOTE_DELAY_MS)
  }

  /** Keeps the address bar a deep link to the form as it stands. */
  private remember(): void {
    const q = new URLSearchParams()
    if (this.from.selected) q.set('from', String(this.from.selected.id))
    if (this.to.selected) q.set('to', String(this.to.selected.id))
    if (this.amount.value.trim()) q.set('amount', this.amount.value.trim())
    if (this.address.value.trim()) q.set('address', this.address.value.trim())
    history.replaceState(null, '', `${location.pathname}?${q}`)
  }

  private limitsOf(from: Token, to: Token): Promise<SwapLimits> {
    const pair = `${from.id}-${to.id}`
    let found = this.limitsByPair.get(pair)
    if (!found) {
      found = this.client.getSwapLimits({ depositTokenId: from.id, settleTokenId: to.id })
      found.catch(() => this.limitsByPair.delete(pair))
      this.limitsByPair.set(pair, found)
    }
    return found
  }

  async quote(): Promise<void> {
    clearTimeout(this.quoteTimer)
    const [from, to, amount] = [this.from.selected, this.to.selected, this.amount.value.trim()]
    if (!from || !to) return
    const asked = ++this.asked
    const limitsAsked = this.limitsOf(from, to)
    if (!amount) {
      this.live.stop()
      this.quoteBox.replaceChildren(
        el('p', { class: 'muted' }, `Enter an amount of ${from.symbol} to see a quote.`),
      )
      await this.showLimits(limitsAsked, from, asked)
      return
    }
    this.live.watch(from, to, amount)
    await this.showLimits(limitsAsked, from, asked)
  }

  /** The pair's bounds under the amount, and a warning when the amount is outside them. */
  private async showLimits(limits: Promise<SwapLimits>, from: Token, asked: number): Promise<void> {
    let bounds
    try {
      bounds = boundsOf(await limits)
    } catch {
      // The quote asked at the same time reports what went wrong with the pair.
    }
    if (asked !== this.asked) return
    this.amount.removeAttribute('aria-invalid')
    if (!bounds) {
      this.limits.replaceChildren()
      return
    }
    const { min, max } = bounds
    const range =
      max === undefined
        ? `This pair takes at least ${formatAmount(min, from.symbol)}.`
        : `This pair takes ${formatAmount(min)} to ${formatAmount(max)} ${from.symbol}.`
    const typed = this.amount.value.trim()
    const side = outside(bounds, typed)
    if (side) this.amount.setAttribute('aria-invalid', 'true')
    this.limits.replaceChildren(
      side
        ? el(
            'strong',
            { class: 'warning' },
            side === 'below'
              ? `${formatAmount(Number(typed), from.symbol)} is below this pair's minimum. `
              : `${formatAmount(Number(typed), from.symbol)} is above this pair's maximum. `,
          )
        : '',
      range,
    )
  }

  /** The input a problem is about, so the alert can leave it in sight. */
  private fieldOf(err: unknown): HTMLInputElement | undefined {
    const { code, errors } = err as { code?: string; errors?: Array<{ path?: string }> }
    const paths = (errors ?? []).map((e) => e.path ?? '')
    if (code === 'INVALID_ADDRESS' || paths.some((p) => p.includes('receivingAddress'))) return this.address
    if (code === 'INVALID_AMOUNT' || paths.some((p) => /intendedAmount|amount/.test(p))) return this.amount
    return undefined
  }

  private async create(): Promise<void> {
    const [from, to] = [this.from.selected, this.to.selected]
    if (!from || !to) return
    const body = {
      depositTokenId: from.id,
      settleTokenId: to.id,
      receivingAddress: this.address.value.trim(),
      intendedAmount: Number(this.amount.value.trim()),
      intendedIsDeposit: true,
    }
    const text = JSON.stringify(body)
    if (this.pending?.body !== text) this.pending = { body: text, key: newKey() }
    this.createButton.disabled = true
    this.createButton.textContent = 'Creating…'
    this.address.removeAttribute('aria-invalid')
    try {
      const order = await this.client.createOrder(body, { idempotencyKey: this.pending.key })
      this.pending = undefined
      this.alerts.clear('create')
      this.onCreated(order)
    } catch (err) {
      const field = this.fieldOf(err)
      if (field === this.address) this.address.setAttribute('aria-invalid', 'true')
      this.alerts.show('create', err, field)
    } finally {
      this.createButton.disabled = false
      this.createButton.textContent = 'Create order'
    }
  }
}
