// The create route's unguarded path: a token id or amount of the wrong type reaches the ORM,
// whose multi-line error text comes back as the 500 message. The spec calls it unstable and says
// not to match on it; it is reproduced so a gateway can prove it never leaks it.
import { businessError, type UpstreamError } from '../envelopes.js'

function typeName(value: unknown): string {
  if (value === null) return 'Null'
  if (Array.isArray(value)) return 'List'
  if (typeof value === 'number') return Number.isInteger(value) ? 'Int' : 'Float'
  const type = typeof value
  return type.charAt(0).toUpperCase() + type.slice(1)
}

function invocation(call: string, path: string[], argument: string, value: unknown, detail: string): string {
  const rendered = value === undefined ? 'undefined' : JSON.stringify(value)
  const indent = '  '.repeat(path.length + 1)
  const opening = path.map((key, i) => `${'  '.repeat(i + 1)}${key}: {`).join('\n')
  const closing = path.map((_, i) => `${'  '.repeat(path.length - i)}}`).join('\n')
  const marker = `${' '.repeat(indent.length + argument.length + 2)}${'~'.repeat(rendered.length)}`
  return `\nInvalid \`${call}\` invocation:\n\n{\n${opening}\n${indent}${argument}: ${rendered}\n${marker}\n${closing}\n}\n\n${detail}`
}

export function tokenLookupError(value: unknown): UpstreamError {
  const detail =
    value === undefined
      ? 'Argument `where` of type TokenWhereUniqueInput needs at least one of `id` arguments. Available options are marked with ?.'
      : `Argument \`id\`: Invalid value provided. Expected Int, provided ${typeName(value)}.`
  return businessError(invocation('prisma.token.findUniqueOrThrow()', ['where'], 'id', value, detail))
}

export function orderInsertError(argument: string, expected: string, value: unknown): UpstreamError {
  const detail =
    value === undefined
      ? `Argument \`${argument}\` is missing.`
      : `Argument \`${argument}\`: Invalid value provided. Expected ${expected}, provided ${typeName(value)}.`
  return businessError(invocation('prisma.order.create()', ['data'], argument, value, detail))
}
