// The error codes as the docs show them (the errors page, OpenAPI, docs/api.md's table): each with the
// status, title, retryability and meaning src/errors.ts holds, and its anchor.
import { codeSlug, ERROR_CODES, type ErrorCode } from '../errors.js'

export interface CatalogueEntry {
  code: ErrorCode
  slug: string
  status: number
  title: string
  retryable: boolean
  meaning: string
}

export const errorCatalogue = (): CatalogueEntry[] =>
  (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => ({
    code,
    slug: codeSlug(code),
    status: ERROR_CODES[code].status,
    title: ERROR_CODES[code].title,
    retryable: ERROR_CODES[code].retryable,
    meaning: ERROR_CODES[code].meaning,
  }))
