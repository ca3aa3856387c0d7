// The history route's query schema and its "Validation failed" issues (path, code, expected,
// received, message per bad parameter). Limits: current >= 1, 1 <= limit <= 100.
import { type ValidationIssue, validationFailed } from '../envelopes.js'

const HISTORY_DEFAULTS = { current: 1, limit: 10 }
const HISTORY_MAX_LIMIT = 100

function issue(name: string, value: unknown, max: number): ValidationIssue | number {
  if (typeof value !== 'string') {
    const received = Array.isArray(value) ? 'array' : typeof value
    return {
      path: [name],
      code: 'invalid_type',
      expected: 'number',
      received,
      message: `Expected number, received ${received}`,
    }
  }
  const number = value.trim() === '' ? Number.NaN : Number(value)
  if (Number.isNaN(number)) {
    return {
      path: [name],
      code: 'invalid_type',
      expected: 'number',
      received: 'nan',
      message: 'Expected number, received nan',
    }
  }
  if (!Number.isInteger(number)) {
    return {
      path: [name],
      code: 'invalid_type',
      expected: 'integer',
      received: 'float',
      message: 'Expected integer, received float',
    }
  }
  if (number < 1) {
    return {
      path: [name],
      code: 'too_small',
      expected: '>=1',
      received: String(number),
      message: 'Number must be greater than or equal to 1',
    }
  }
  if (number > max) {
    return {
      path: [name],
      code: 'too_big',
      expected: `<=${max}`,
      received: String(number),
      message: `Number must be less than or equal to ${max}`,
    }
  }
  return number
}

export function parseHistoryQuery(query: Record<string, unknown>): { current: number; limit: number } {
  const current =
    query.current === undefined
      ? HISTORY_DEFAULTS.current
      : issue('current', query.current, Number.MAX_SAFE_INTEGER)
  const limit =
    query.limit === undefined ? HISTORY_DEFAULTS.limit : issue('limit', query.limit, HISTORY_MAX_LIMIT)
  const issues = [current, limit].filter((v): v is ValidationIssue => typeof v !== 'number')
  if (typeof current !== 'number' || typeof limit !== 'number') throw validationFailed(issues)
  return { current, limit }
}
