// Asserts that a response is one of our problem documents, and that nothing of the upstream leaked.
import type { Test } from 'tap'
import { ERROR_CODES, type ErrorCode } from '../../src/errors.js'

/** Text that only an upstream body would contain. */
const UPSTREAM_TEXT = [
  /statusCode/,
  /Internal server error/i,
  /Invalid (deposit|settle) token id provided/,
  /Couldn't find trade path/,
  /Invalid amount/,
  /Valid access token required/,
  /<html/i,
  /prisma|postgres|database|SELECT /i,
]

export interface ResponseLike {
  statusCode: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
}

export function assertProblem(t: Test, res: ResponseLike, code: ErrorCode, retryable?: boolean) {
  const spec = ERROR_CODES[code]
  t.equal(res.statusCode, spec.status, `status ${spec.status} for ${code}`)
  t.match(String(res.headers['content-type']), /^application\/problem\+json/, 'problem content type')
  const body = JSON.parse(res.body) as Record<string, unknown>
  t.equal(body.code, code, 'stable code')
  t.equal(body.status, spec.status)
  t.equal(body.title, spec.title)
  t.equal(body.retryable, retryable ?? spec.retryable, 'retryable')
  t.type(body.detail, 'string')
  t.match(
    body.type,
    new RegExp(`^https?://[^/]+(/[^/]+)*/docs/errors#${code.toLowerCase().replaceAll('_', '-')}$`),
    'type: an absolute URI naming the code',
  )
  t.equal(body.requestId, res.headers['x-request-id'], 'requestId matches the header')
  for (const re of UPSTREAM_TEXT) t.notMatch(res.body, re, `no upstream text ${re}`)
  return body
}
