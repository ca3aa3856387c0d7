// How the demo page writes amounts, durations and addresses.

const amounts = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 8 })
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

export const amount = (value: number | null | undefined, symbol?: string): string =>
  value === null || value === undefined ? '–' : `${amounts.format(value)}${symbol ? ` ${symbol}` : ''}`

export const dollars = (value: number | null | undefined): string =>
  typeof value === 'number' ? usd.format(value) : '–'

/** 83_000 → "1:23"; over an hour, "1:02:03". */
export function duration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** 0x52908400098527886E0F7030069857D2E4169EE7 → 0x5290…9EE7 */
export const shortAddress = (address: string): string =>
  address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address

export const dateTime = (iso: string): string =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
