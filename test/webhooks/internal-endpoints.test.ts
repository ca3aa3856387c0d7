// The operator's endpoints on the internal port: failed and pending deliveries listed, a failed one
// sent again at once; bad input answered with problem documents; nothing of them on the public port.
// The same in this process and with REDIS_URL (the deliveries then listed and re-queued in Redis).
import t, { type Test } from 'tap'
import { eventually } from '../helpers/eventually.js'
import { assertProblem } from '../helpers/problem.js'
import { redisServerInstalled, startPrivateRedis } from '../ops/private-redis.js'
import { attempts, newSecret, poll, sandboxOrderEvents, startReceiver, webhookGateway } from './support.js'

async function listedAndResent(t: Test, env: Record<string, string>) {
  const secret = newSecret()
  const [a, b] = [await startReceiver(t, [secret]), await startReceiver(t, [secret])]
  let healthy = false
  a.answer(() => (healthy ? { status: 200 } : { status: 500 }))
  const gw = await webhookGateway(t, {
    env: {
      WEBHOOK_URLS: `${a.url},${b.url}`,
      WEBHOOK_SECRET: secret,
      WEBHOOK_RETRY_SCHEDULE_MS: '1000',
      ...env,
    },
  })
  const internal = (await gw.app.metricsUrl())!.replace('/metrics', '')
  const [created] = await sandboxOrderEvents(gw)
  await gw.app.orderEvents.publish(created!)
  poll(gw)
  await eventually('b delivered, a tried once', () => a.received.length === 1 && b.received.length === 1)
  await attempts({ app: gw.app, receiver: { received: [1, 2] } }, 2)

  const pending = await (await fetch(`${internal}/webhooks/deliveries?state=pending`)).json()
  t.match(pending.deliveries, [
    {
      eventId: created!.id,
      type: 'order.created',
      orderId: created!.orderId,
      url: a.url,
      attempts: 1,
      lastAnswer: 'HTTP 500',
      nextAttemptAt: String,
    },
  ])
  gw.clock.advance(1_000)
  await eventually('a tried again', () => a.received.length === 2)
  let failed: { deliveries: unknown[] } = { deliveries: [] }
  await eventually('failed', async () => {
    failed = await (await fetch(`${internal}/webhooks/deliveries?state=failed`)).json()
    return failed.deliveries.length === 1
  })
  t.match(failed.deliveries[0], {
    eventId: created!.id,
    url: a.url,
    attempts: 2,
    lastAnswer: 'HTTP 500',
    nextAttemptAt: null,
  })

  const retry = (body: unknown, id = created!.id) =>
    fetch(`${internal}/webhooks/deliveries/${encodeURIComponent(id)}/retry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const asProblem = async (res: Response) => ({
    statusCode: res.status,
    headers: Object.fromEntries(res.headers),
    body: await res.text(),
  })
  assertProblem(t, await asProblem(await retry({})), 'VALIDATION_FAILED')
  assertProblem(t, await asProblem(await retry({ url: 'https://unknown.example/' })), 'VALIDATION_FAILED')
  assertProblem(t, await asProblem(await retry({ url: b.url })), 'NOT_FOUND')
  assertProblem(t, await asProblem(await retry({ url: a.url }, 'other.created')), 'NOT_FOUND')
  const bad = await fetch(`${internal}/webhooks/deliveries?state=lost`)
  assertProblem(t, await asProblem(bad), 'VALIDATION_FAILED')

  healthy = true
  const res = await retry({ url: a.url })
  t.equal(res.status, 202)
  await eventually('re-sent at once (no clock advanced)', () => a.received.length === 3)
  t.equal(a.received[2]!.headers['webhook-id'], created!.id)
  await eventually('nothing failed any more', async () => {
    const now = await (await fetch(`${internal}/webhooks/deliveries?state=failed`)).json()
    return now.deliveries.length === 0
  })

  const publicPort = await fetch(`${gw.url}/webhooks/deliveries?state=failed`)
  t.equal(publicPort.status, 404, 'not on the public port')
  const everything = JSON.stringify([pending, failed]) + gw.logs.text()
  t.notOk(everything.includes(secret.slice(6)), 'no secret in the answers or the logs')
}

t.test('a failed delivery is listed and re-sent through the internal port', (t) => listedAndResent(t, {}))

t.test(
  'with REDIS_URL, a failed delivery is listed and re-sent through the internal port',
  { skip: redisServerInstalled() ? false : 'redis-server is not installed: cannot start a private Redis' },
  async (t) => listedAndResent(t, { REDIS_URL: (await startPrivateRedis(t)).url }),
)
