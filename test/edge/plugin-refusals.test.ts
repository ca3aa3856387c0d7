// A library's or a plugin's own refusal (an error carrying a 4xx status) is a problem document of the
// code of its status, or the nearest the API has: never INTERNAL, never an error-level line with a
// stack. Only a status of 500 or more (or none) is a fault of the gateway.
import t from 'tap'
import type { ErrorCode } from '../../src/errors.js'
import { buildUnready } from '../helpers/gateway.js'
import { logSink } from '../helpers/logs.js'
import { assertProblem } from '../helpers/problem.js'

/** A plugin's refusal with this status, as @fastify/static and Fastify's own parsers throw them. */
const refusal = (statusCode: number) => Object.assign(new Error(`refused with ${statusCode}`), { statusCode })

const EXPECTED: Array<[number, ErrorCode]> = [
  [400, 'VALIDATION_FAILED'],
  [403, 'NOT_FOUND'],
  [404, 'NOT_FOUND'],
  [405, 'NOT_FOUND'],
  [406, 'VALIDATION_FAILED'],
  [408, 'REQUEST_TIMEOUT'],
  [410, 'NOT_FOUND'],
  [412, 'VALIDATION_FAILED'],
  [413, 'PAYLOAD_TOO_LARGE'],
  [414, 'URI_TOO_LONG'],
  [415, 'UNSUPPORTED_MEDIA_TYPE'],
  [416, 'VALIDATION_FAILED'],
  [418, 'VALIDATION_FAILED'],
  [431, 'HEADERS_TOO_LARGE'],
]

t.test("a plugin's 4xx is a problem of its status, never INTERNAL; its 5xx is INTERNAL", async (t) => {
  const logs = logSink()
  const app = await buildUnready(t, { logStream: logs.stream })
  const codes = [...new Set(EXPECTED.map(([, code]) => code))]
  await app.register(async (scope) => {
    scope.get(
      '/api/v1/refusing/:status',
      { config: { answers: { success: { 200: { description: 'Never.' } }, problems: codes } } },
      async (request) => {
        throw refusal(Number((request.params as { status: string }).status))
      },
    )
  })
  for (const [status, code] of EXPECTED) {
    assertProblem(t, await app.inject({ url: `/api/v1/refusing/${status}` }), code)
  }
  t.same(
    logs.lines().filter((l) => Number(l.level) >= 50 || 'err' in l),
    [],
    'no error-level line, no stack',
  )
  for (const status of [500, 503]) {
    assertProblem(t, await app.inject({ url: `/api/v1/refusing/${status}` }), 'INTERNAL')
  }
  t.equal(logs.lines().filter((l) => l.msg === 'unhandled error').length, 2, 'a 5xx is a fault, logged')
})
