// An upstream error answer is logged for operators, trimmed and with its secrets removed: a token
// (anything shaped like a JWT) and the tenant key never reach a log line, and nothing of it reaches
// the client.
import t from 'tap'
import { startGateway, TEST_TENANT_KEY } from '../helpers/gateway.js'

const READ = 'GET /v1/orders/:uuid'
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIweDEyMyJ9.c2lnbmF0dXJl'

t.test('an upstream error body is logged trimmed, without tokens or the tenant key', async (t) => {
  const gw = await startGateway(t)
  const body = `{"statusCode":500,"message":"boom ${JWT} key=${TEST_TENANT_KEY}","pad":"${'x'.repeat(5000)}"}`
  gw.sandbox.control.fault(READ, { kind: 'status', status: 500, body, count: 10 })
  const res = await gw.app.inject(`/api/v1/orders/${crypto.randomUUID()}`)
  const line = gw.logs.lines().find((l) => l.msg === 'upstream answered with an error')
  const logged = (line?.upstream as { body?: string } | undefined)?.body ?? ''
  t.match(logged, /boom \[redacted\] key=\[redacted\]/, 'the text is kept, its secrets replaced')
  t.equal(logged.length <= 2048, true, 'trimmed to 2 KiB')
  t.notMatch(gw.logs.text(), JWT, 'no token in any line')
  t.notMatch(gw.logs.text(), TEST_TENANT_KEY, 'no tenant key in any line')
  t.notMatch(res.body, /boom/, 'no upstream text in the answer')
})
