// The sandbox's price control (PUT /__sandbox/tokens/:id/price): a token's USD price set from a test,
// so a quote that involves it moves, as live quote tests need.
import t from 'tap'
import { picks } from '../helpers/picks.js'
import { startSandbox } from '../helpers/sandbox.js'
import { call, TENANT } from './http.js'

t.test(
  'a token priced anew moves the quotes that involve it; bad input 400, unknown token 404',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const p = picks(control.tokens())
    const quote = async () =>
      (
        await call(
          url,
          `/v1/tokens/quote?depositTokenId=${p.usdtEth.id}&settleTokenId=${p.eth.id}&amount=100&amountIsDeposit=true`,
          { headers: TENANT },
        )
      ).body as { exchangeRate: number; settleAmount: number }
    const before = await quote()
    const set = await call(url, `/__sandbox/tokens/${p.eth.id}/price`, {
      method: 'PUT',
      json: { usdPrice: 2000 },
    })
    t.equal(set.status, 200)
    t.same(set.body, { id: p.eth.id, usdPrice: 2000 })
    const after = await quote()
    t.not(after.exchangeRate, before.exchangeRate)
    t.ok(
      Math.abs(after.settleAmount * 2000 - 100) < 1,
      'about 100 USD of ETH at 2,000 USD each, less the margin',
    )

    const bad = await call(url, `/__sandbox/tokens/${p.eth.id}/price`, {
      method: 'PUT',
      json: { usdPrice: -1 },
    })
    t.equal(bad.status, 400)
    const unknown = await call(url, `/__sandbox/tokens/${p.unknownId}/price`, {
      method: 'PUT',
      json: { usdPrice: 1 },
    })
    t.equal(unknown.status, 404)
  },
)
