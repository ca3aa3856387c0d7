// A quote as the upstream is asked for it, shared by the quote route and the live quote (which must
// answer exactly as the quote route does): its query string, and when a quote has no price.
import type { Quote } from '../upstream/schemas.js'
import type { QuoteQuery } from './schemas.js'

/** Built from validated values: numbers, a decimal and a boolean word. */
export const upstreamQuoteQuery = (q: QuoteQuery): string =>
  `depositTokenId=${q.depositTokenId}&settleTokenId=${q.settleTokenId}&amount=${encodeURIComponent(q.amount)}&amountIsDeposit=${q.amountIsDeposit}`

/** The upstream prices nothing with `exchangeRate: 0` (and a 200): NO_QUOTE. */
export const isNoQuote = (quote: Quote): boolean => quote.exchangeRate === 0
