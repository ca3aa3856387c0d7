// The upstream faults of the fault matrix, and the code the contract gives a client for each on each
// kind of upstream call: a GET (retried), the create (never retried: the order may exist), another
// POST (verify), the refresh (whose failure is a lapsed session), the catalog (served stale).
import type { ErrorCode } from '../../src/errors.js'
import type { Fault } from '../../src/sandbox/app.js'
import { DEADLINE_MS } from './setup.js'

/** Enough for every attempt of a retried call; cleared before the recovery check. */
const COUNT = 20
/** Well past the deadline and its margin: a gateway that waits for the upstream fails the bound. */
const SLOW_MS = DEADLINE_MS * 5

export const FAULTS = {
  'delay past the deadline': { kind: 'delay', ms: SLOW_MS, count: COUNT },
  'dropped connection': { kind: 'drop', count: COUNT },
  'dropped after processing': { kind: 'dropAfter', count: COUNT },
  'generic 500': { kind: 'error500', count: COUNT },
  'HTML 502': {
    kind: 'status',
    status: 502,
    body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
    headers: { 'content-type': 'text/html' },
    count: COUNT,
  },
  'garbage 200': { kind: 'badBody', count: COUNT },
  'wrong-shaped 200': {
    kind: 'status',
    status: 200,
    body: '"not the documented body"',
    headers: { 'content-type': 'application/json' },
    count: COUNT,
  },
  '429 with Retry-After': {
    kind: 'status',
    status: 429,
    body: JSON.stringify({ statusCode: 429, message: 'ThrottlerException: Too Many Requests' }),
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
    count: COUNT,
  },
  'body trickled past the deadline': { kind: 'trickle', ms: SLOW_MS, pieces: 16, count: COUNT },
} satisfies Record<string, Fault>

export type FaultName = keyof typeof FAULTS

export type CallKind = 'get' | 'create' | 'post' | 'refresh'

export function expectedCode(kind: CallKind, fault: FaultName): ErrorCode {
  switch (fault) {
    case 'delay past the deadline':
    case 'body trickled past the deadline':
      return kind === 'create' ? 'ORDER_OUTCOME_UNKNOWN' : 'UPSTREAM_TIMEOUT'
    case 'dropped connection':
    case 'dropped after processing':
      return kind === 'create' ? 'ORDER_OUTCOME_UNKNOWN' : 'UPSTREAM_UNAVAILABLE'
    case 'generic 500':
    case 'HTML 502':
      return 'UPSTREAM_ERROR'
    case 'garbage 200':
    case 'wrong-shaped 200':
      if (kind === 'create') return 'ORDER_OUTCOME_UNKNOWN'
      // The refresh's success body is undocumented: an answer without a token is a failed refresh.
      return kind === 'refresh' ? 'SESSION_EXPIRED' : 'UPSTREAM_BAD_RESPONSE'
    case '429 with Retry-After':
      return 'UPSTREAM_UNAVAILABLE'
  }
}
