// Amounts as a pricing engine prints them: bounded decimals for token amounts, significant
// digits for rates and limits, cents for USD values.

export function toDecimals(value: number, decimals: number): number {
  const places = Math.min(decimals, 8)
  return Math.round(value * 10 ** places) / 10 ** places
}

export function toSignificant(value: number, digits = 6): number {
  return value === 0 ? 0 : Number(value.toPrecision(digits))
}

export function toCents(value: number): number {
  return Math.round(value * 100) / 100
}
