// The API reference at /api/docs in a real browser (headless Chromium): it renders every operation
// from the gateway's own assets, its Content-Security-Policy blocks nothing it needs (a violation is a
// console error), it asks nothing of another origin, and "try it out" reaches the gateway.
import t from 'tap'
import { CHROMIUM, launchBrowser, listeningGateway } from '../helpers/browser.js'
import { picks } from '../helpers/picks.js'

t.test(
  'the reference page renders every operation under its CSP and tries a quote against the gateway',
  { skip: !CHROMIUM && 'no Chromium' },
  async (t) => {
    const gw = await listeningGateway(t, '127.0.0.1')
    const { origin } = gw
    const browser = await launchBrowser(t)
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
    const elsewhere: string[] = []
    page.on('request', (r) => !r.url().startsWith(`${origin}/`) && elsewhere.push(r.url()))

    await page.goto(`${origin}/api/docs#/pricing/getQuote`)
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 })
    for (const id of ['listTokens', 'getQuote', 'createOrder', 'followOrder', 'verifySignIn', 'getMe']) {
      t.equal(await page.getByText(id, { exact: true }).count(), 1, `shows ${id}`)
    }

    const p = picks(gw.sandbox.control.tokens())
    await page.getByRole('button', { name: 'Try it out' }).click()
    await page.getByPlaceholder('depositTokenId').fill(String(p.usdtEth.id))
    await page.getByPlaceholder('settleTokenId').fill(String(p.eth.id))
    await page.getByPlaceholder('amount').fill('100')
    await page.locator('tr[data-param-name="amountIsDeposit"] select').selectOption('true')
    await page.getByRole('button', { name: 'Execute' }).click()
    const status = page.locator('.live-responses-table tr.response .response-col_status').first()
    await status.waitFor({ timeout: 30_000 })
    t.equal((await status.innerText()).trim(), '200', 'the quote came back from the gateway')
    t.match(await page.locator('.live-responses-table .microlight').first().innerText(), /"exchangeRate"/)

    t.same(errors, [], 'no console errors: the CSP blocked nothing')
    t.same(elsewhere, [], 'every request went to the gateway')
  },
)
