// Property-based fuzzing of every public route (fast-check, a fixed seed that is printed): paths,
// queries, headers and bodies. Whatever is sent, the answer has a status the OpenAPI document gives
// that operation, every failure is a problem document of a catalogued code (never INTERNAL, never an
// upstream failure: the sandbox is healthy), nothing hangs, and a request refused at the edge never
// reaches the sandbox. FUZZ_RUNS raises the number of runs (default 300), FUZZ_SEED changes the seed.
import fc from 'fast-check'
import t from 'tap'
import { request } from 'undici'
import { ERROR_CODES, type ErrorCode } from '../../src/errors.js'
import { type FuzzRequest, fuzzRequest, SESSION } from './fuzz-inputs.js'
import { reliableGateway } from './setup.js'

// Hundreds of requests (thousands with FUZZ_RUNS): more than tap's per-file limit.
t.setTimeout(180_000)

const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_123)
/** Longer than any deadline in play: an answer that takes this long is a hang. */
const HANG_MS = 5_000

/** Answers only the gateway's edge gives: such a request must never have reached the sandbox. */
const EDGE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'VALIDATION_FAILED',
  'INVALID_AMOUNT',
  'INVALID_ORDER_ID',
  'NOT_FOUND',
  'TOKEN_NOT_FOUND',
  'UNKNOWN_TOKEN',
  'PAIR_UNAVAILABLE',
  'ORIGIN_NOT_ALLOWED',
  'AUTH_REQUIRED',
  'NONCE_MISSING',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
])
/**
 * What any request target can draw: the §3 parser and framework answers, and the origin policy's
 * refusal, which comes before routing (§8), so a path of no route gets it too.
 */
const ANY_ROUTE_STATUSES = [400, 403, 404, 414, 431]

t.test(`fuzzed requests to every route (seed ${SEED}, ${RUNS} runs)`, async (t) => {
  t.comment(`fast-check seed ${SEED}, ${RUNS} runs (FUZZ_SEED, FUZZ_RUNS)`)
  const gw = await reliableGateway(t)
  const { sessionToken } = await gw.signedIn()
  // A live order, so order reads and streams of a well-formed uuid also reach the sandbox.
  await gw.call('/api/v1/orders/create', { body: gw.order() })
  const doc = JSON.parse((await gw.call('/api/openapi.json')).body) as {
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>
  }
  const documented = new Map<string, Set<number>>()
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      if (!op.responses) continue
      documented.set(`${method.toUpperCase()} ${path}`, new Set(Object.keys(op.responses).map(Number)))
    }
  }

  const statuses = new Map<number, number>()
  const codes = new Map<string, number>()
  let sent = 0
  let seq = 0

  async function send(req: FuzzRequest) {
    const requestId = `fuzz-${++seq}`
    const started = Date.now()
    const res = await request(gw.url + req.path, {
      method: req.method as 'GET',
      headers: {
        ...Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, v.replace(SESSION, sessionToken)]),
        ),
        'x-request-id': requestId,
      },
      body: req.body,
      headersTimeout: HANG_MS,
      bodyTimeout: HANG_MS,
    })
    const stream = String(res.headers['content-type']).startsWith('text/event-stream')
    // A stream stays open by design: its head is the answer.
    const body = stream ? (res.body.destroy(), '') : await res.body.text()
    sent++
    return { requestId, status: res.statusCode, headers: res.headers, body, ms: Date.now() - started }
  }

  const property = fc.asyncProperty(fuzzRequest(gw.config.apiPrefix), async (req) => {
    let answer: Awaited<ReturnType<typeof send>>
    try {
      answer = await send(req)
    } catch (err) {
      // undici refuses some targets before sending (a client-side check); those never left the test.
      if ((err as { code?: string }).code === 'UND_ERR_INVALID_ARG') return
      throw new Error(`no answer to ${req.method} ${req.path}: ${String(err)}`)
    }
    const { status, headers, body, requestId } = answer
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
    const allowed = new Set([
      ...(req.operation ? (documented.get(req.operation) ?? []) : []),
      ...ANY_ROUTE_STATUSES,
    ])
    if (!allowed.has(status)) throw new Error(`undocumented status ${status} for ${req.operation}: ${body}`)
    if (status < 400) return
    if (!String(headers['content-type']).startsWith('application/problem+json')) {
      throw new Error(`${status} is not a problem document: ${headers['content-type']} ${body}`)
    }
    const problem = JSON.parse(body) as { code: ErrorCode; status: number; requestId: string }
    codes.set(problem.code, (codes.get(problem.code) ?? 0) + 1)
    const spec = ERROR_CODES[problem.code]
    if (!spec) throw new Error(`uncatalogued code ${problem.code}`)
    if (spec.status !== status || problem.status !== status) throw new Error(`${problem.code} with ${status}`)
    if (problem.code === 'INTERNAL' || problem.code.startsWith('UPSTREAM_')) {
      throw new Error(
        `${problem.code} for ${req.method} ${req.path} ${JSON.stringify(req.headers)} ${req.body}`,
      )
    }
    if (problem.requestId !== headers['x-request-id']) throw new Error('requestId differs from x-request-id')
    if (EDGE_CODES.has(problem.code)) {
      // A catalog refresh for an unknown token id is the one upstream call an edge refusal may make.
      const reached = gw.control.requests.filter(
        (r) => r.headers['x-request-id'] === requestId && r.route !== 'GET /v1/tokens',
      )
      if (reached.length > 0) throw new Error(`${problem.code} reached the sandbox: ${reached[0]?.url}`)
    }
  })

  const result = await fc.check(property, { seed: SEED, numRuns: RUNS, endOnFailure: true })
  if (result.failed) t.fail(`${String(result.errorInstance)}\n${fc.defaultReportMessage(result)}`)
  else t.pass(`${RUNS} fuzzed requests held every property`)
  const figures = {
    seed: SEED,
    runs: RUNS,
    requests: sent,
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    codes: Object.fromEntries([...codes].sort(([, a], [, b]) => b - a)),
    sandboxRequests: gw.control.requests.length,
  }
  t.comment(`fuzz figures: ${JSON.stringify(figures)}`)
  t.ok(sent >= RUNS * 0.9, 'almost every run was really sent')
})
