// The demo app's live quote in headless Chromium, at desktop and phone width: the quote arrives by
// itself and moves when the price does (no click), with its age; the gateway's clock is set three
// seconds behind the page's, so the quote the page gets is already three seconds old and the age it
// shows is exact without waiting. Screenshots in test-artifacts/, to look at.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { CHROMIUM, launchBrowser, listeningGateway } from '../helpers/browser.js'
import { fakeClock } from '../helpers/clock.js'
import { eventually } from '../helpers/eventually.js'
import { picks } from '../helpers/picks.js'

const ARTIFACTS = join(process.cwd(), 'test-artifacts')
/** Generous: two cores shared by the whole suite, and a browser. */
const STEP_MS = 20_000

if (!CHROMIUM) t.comment('skipped: no Chromium')
t.setTimeout(240_000)

for (const width of [1280, 360]) {
  t.test(`at ${width} px the quote is live, with its age`, { skip: !CHROMIUM }, async (t) => {
    const clock = fakeClock({ running: true })
    clock.jump(-3_000)
    const gw = await listeningGateway(t, 'localhost', {
      env: { QUOTE_REFRESH_MS: '200', QUOTE_STREAM_MAX_SILENCE_MS: '60000' },
      deps: { clock },
    })
    const p = picks(gw.sandbox.control.tokens())
    const browser = await launchBrowser(t)
    const context = await browser.newContext({ viewport: { width, height: 820 } })
    const page = await context.newPage()
    await page.goto(`${gw.origin}/?from=${p.usdtEth.id}&to=${p.eth.id}&amount=100`)

    const quote = page.locator('#quote')
    await quote.filter({ hasText: '≈' }).waitFor({ timeout: STEP_MS })
    const first = await quote.locator('.receive').textContent()
    t.match(first, /^≈ [\d.,]+ ETH$/)
    await page
      .getByTestId('quote-age')
      .filter({ hasText: /^Live · updated 3 s ago$/ })
      .waitFor({ timeout: STEP_MS })

    gw.sandbox.control.setTokenPrice(p.eth.id, 1500)
    await quote.locator('.receive').filter({ hasNotText: first! }).waitFor({ timeout: STEP_MS })
    t.not(await quote.locator('.receive').textContent(), first, 'the new price, without a click')
    t.equal(gw.app.quoteHub.stats().polled, 1, 'one poll for the page')

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    t.equal(overflow, 0, 'nothing wider than the page')
    await mkdir(ARTIFACTS, { recursive: true })
    await quote.scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(ARTIFACTS, `live-quote-${width}.png`) })

    await context.close()
    await eventually('the page left, and its poll stopped', () => gw.app.quoteHub.stats().polled === 0)
  })
}
