// The API reference lists, per route, the problem codes it answers, from what the route declares
// (edge/route-answers.ts). A problem sent with a code its route does not declare makes that list
// false: it is logged and counted, and every test that builds a gateway fails on the log line.
import t from 'tap'
import { problems } from '../../src/problems.js'
import { buildUnready, UNDECLARED } from '../helpers/gateway.js'
import { logSink } from '../helpers/logs.js'

const declaring = (...codes: Array<'ORDER_NOT_FOUND' | 'TOKEN_NOT_FOUND'>) => ({
  config: { answers: { success: { 200: { description: 'Yes.' } }, problems: codes } },
})

t.test(
  'a problem its route does not declare is an error line and a metric; declared ones are not',
  async (t) => {
    const logs = logSink()
    const app = await buildUnready(t, { logStream: logs.stream })
    await app.register(async (scope) => {
      scope.get('/api/v1/misdeclared/:id', declaring('TOKEN_NOT_FOUND'), async () => {
        throw problems.orderNotFound()
      })
      scope.get('/api/v1/declared/:id', declaring('ORDER_NOT_FOUND'), async () => {
        throw problems.orderNotFound()
      })
      scope.get('/api/v1/failing', declaring(), async () => {
        throw new Error('a bug')
      })
    })

    t.equal((await app.inject({ url: '/api/v1/declared/1' })).statusCode, 404)
    t.equal(
      (await app.inject({ url: '/api/v1/failing' })).statusCode,
      500,
      'INTERNAL: every route answers it',
    )
    t.same(
      logs.lines().filter((l) => l.msg === UNDECLARED),
      [],
      'no line for a declared code, nor for one every route can answer',
    )

    const answer = await app.inject({ url: '/api/v1/misdeclared/1' })
    t.equal(answer.json().code, 'ORDER_NOT_FOUND', 'the client still gets the problem')
    t.match(
      logs.lines().filter((l) => l.msg === UNDECLARED),
      [{ level: 50, route: '/api/v1/misdeclared/:id', method: 'GET', code: 'ORDER_NOT_FOUND' }],
    )
    const metrics = await app.metrics.registry.getSingleMetricAsString(
      'gateway_http_undeclared_problems_total',
    )
    t.match(metrics, /^gateway_http_undeclared_problems_total 1$/m)
  },
)
