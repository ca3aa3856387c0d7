// A problem's `type` is an absolute URI on PUBLIC_ORIGIN, so a page on another origin (a dev server, a
// partner site) that follows it reaches the gateway's errors page, not a 404 on its own origin.
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'

t.test("a problem's type is absolute on PUBLIC_ORIGIN and names the code's anchor", async (t) => {
  const gw = await startGateway(t, {
    env: { PUBLIC_ORIGIN: 'https://app.example', ALLOWED_ORIGINS: 'https://partner.example' },
  })
  const unknown = await gw.app.inject({
    url: '/api/v1/tokens/quote?depositTokenId=1&settleTokenId=999999&amount=1&amountIsDeposit=true',
    headers: { origin: 'https://partner.example' },
  })
  t.equal(unknown.json().type, 'https://app.example/api/docs/errors#unknown-token')
  const notFound = await gw.app.inject({ url: '/no/such/route' })
  t.equal(notFound.json().type, 'https://app.example/api/docs/errors#not-found')

  const page = await gw.app.inject({ url: '/api/docs/errors' })
  t.match(page.body, 'id="unknown-token"', 'the anchor exists on the page the type names')
})

t.test('the type follows API_PREFIX, and the default PUBLIC_ORIGIN follows PORT', async (t) => {
  const gw = await startGateway(t, { env: { API_PREFIX: '/swap', PORT: '8080' } })
  const res = await gw.app.inject({ url: '/swap/v1/orders/not-a-uuid' })
  t.equal(res.json().type, 'http://localhost:8080/swap/docs/errors#invalid-order-id')
})
