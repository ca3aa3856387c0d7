/// <reference lib="dom" />
// One side of the swap: a search box over the tradable catalog and the list of matching tokens.
// The whole catalog is in the page already, so searching is local and instant; the list is capped so
// that the select stays usable on a phone.
import type { Token } from 'swap-gateway-client'
import { byId, el } from './dom.js'

const SHOWN = 150

const label = (t: Token) => `${t.symbol} · ${t.name} · ${t.blockchain.name}`

/** Exact symbols first, then symbols that start with the query, then any match in name or chain. */
function rank(tokens: Token[], query: string): Token[] {
  const q = query.trim().toLowerCase()
  if (!q) return tokens
  const scored: Array<[number, Token]> = []
  for (const t of tokens) {
    const symbol = t.symbol.toLowerCase()
    const score =
      symbol === q
        ? 0
        : symbol.startsWith(q)
          ? 1
          : `${t.name} ${t.blockchain.name} ${t.blockchain.network}`.toLowerCase().includes(q)
            ? 2
            : -1
    if (score >= 0) scored.push([score, t])
  }
  return scored.sort((a, b) => a[0] - b[0]).map(([, t]) => t)
}

export class TokenPicker {
  private readonly search: HTMLInputElement
  private readonly select: HTMLSelectElement
  private readonly hint: HTMLElement
  private tokens: Token[] = []
  private known = new Map<number, Token>()

  constructor(
    side: 'from' | 'to',
    private readonly onChange: () => void,
  ) {
    this.search = byId<HTMLInputElement>(`${side}-search`)
    this.select = byId<HTMLSelectElement>(side)
    this.hint = byId(`${side}-hint`)
    this.search.addEventListener('input', () => this.filter())
    this.select.addEventListener('change', () => this.onChange())
  }

  load(tokens: Token[], selectedId: number | undefined): void {
    this.tokens = tokens
    this.known = new Map(tokens.map((t) => [t.id, t]))
    this.render(tokens, selectedId)
  }

  get selected(): Token | undefined {
    return this.known.get(Number(this.select.value))
  }

  /** Selects a token by id (a deep link, the flip button); false when it is not tradable. */
  choose(id: number | undefined): boolean {
    if (id === undefined || !this.known.has(id)) return false
    this.search.value = ''
    this.render(this.tokens, id)
    return true
  }

  private filter(): void {
    const before = this.selected?.id
    const matches = rank(this.tokens, this.search.value)
    this.render(matches, before)
    if (this.selected?.id !== before) this.onChange()
  }

  private render(matches: Token[], selectedId: number | undefined): void {
    const shown = matches.slice(0, SHOWN)
    const keep =
      selectedId !== undefined && shown.some((t) => t.id === selectedId) ? selectedId : shown[0]?.id
    this.select.replaceChildren(
      ...shown.map((t) => {
        const option = el('option', { value: String(t.id) }, label(t))
        option.selected = t.id === keep
        return option
      }),
    )
    this.hint.textContent =
      matches.length === 0
        ? 'No tradable token matches.'
        : matches.length > SHOWN
          ? `Showing ${SHOWN} of ${matches.length.toLocaleString('en-US')}: type to narrow the list.`
          : `${matches.length.toLocaleString('en-US')} tradable token${matches.length === 1 ? '' : 's'}.`
  }
}
