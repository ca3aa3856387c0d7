// A wallet stream lives as long as its session: it ends at the session's lapse (a timer, with no event
// needed), and at the first heartbeat after a logout; the reconnect that follows is refused, so a
// browser's EventSource stops until the app signs in again and opens a new stream.
import t from 'tap'
import { assertProblem } from '../helpers/problem.js'
import { walletGateway } from './setup.js'

t.test('logging out ends the stream, and a reconnect is refused', async (t) => {
  const gw = await walletGateway(t, { env: { SSE_HEARTBEAT_MS: '100' } })
  const [alice, bob] = [await gw.user(), await gw.user()]
  const hers = await gw.raw(alice.auth)
  const his = await gw.raw(bob.auth)
  await hers.first()
  await his.first()

  await gw.logout(alice.token)
  const text = await hers.until('the end of her stream', (_, ended) => ended)
  t.match(text, /: session ended; sign in again\n\n$/, 'her stream ends, saying why')
  const again = await gw.app.inject({ url: '/api/v1/orders/stream', headers: alice.auth })
  assertProblem(t, again, 'AUTH_REQUIRED')
  await his.until('a heartbeat after hers ended', (s) => s.split(': heartbeat').length > 3)
  t.notOk(his.text().includes('session ended'), "another user's stream goes on")
  his.close()
})

t.test('the stream ends when the session lapses, at that moment, with no event to wait for', async (t) => {
  const gw = await walletGateway(t, { env: { SSE_HEARTBEAT_MS: '60000' } })
  const alice = await gw.user()
  // Just before the lapse: the session is still good when the stream opens.
  gw.clock.advance(alice.lapsesAt - gw.clock.now() - 700)
  const stream = await gw.raw(alice.auth)
  await stream.first()
  // Bounded well below the heartbeat: the end comes from the lapse's own timer.
  const text = await stream.until('the end at the lapse', (_, ended) => ended, 10_000)
  t.match(text, /: session ended; sign in again\n\n$/, 'ended by the gateway, saying why')
  const again = await gw.app.inject({ url: '/api/v1/orders/stream', headers: alice.auth })
  assertProblem(t, again, 'SESSION_EXPIRED')
})
