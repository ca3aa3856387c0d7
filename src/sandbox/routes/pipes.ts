// The framework-level query checks (NestJS ParseIntPipe / ParseBoolPipe style): a 400 before the
// service sees the request. The quote amount is deliberately not one of them (quote rule 1).
import { badRequest } from '../envelopes.js'

export function parseIntParam(value: unknown): number {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value)
  throw badRequest('Validation failed (numeric string is expected)')
}

export function parseBoolParam(value: unknown): boolean {
  if (value === 'true') return true
  if (value === 'false') return false
  throw badRequest('Validation failed (boolean string is expected)')
}

/** The quote amount as the service reads it: a finite number, or nothing at all. */
export function quoteAmount(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined
  const amount = Number(value)
  return Number.isFinite(amount) ? amount : undefined
}
