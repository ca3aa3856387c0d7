// The demo's order history kept live by the wallet stream, in headless Chromium: signed in with an
// injected wallet, the page shows an order the same user created elsewhere (another device, through
// the API) and then its status change, with no reload and no click. The order events are published
// on the gateway's order-event bus as the watch publishes them. Screenshot in test-artifacts/.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import type { OrderEvent } from '../../src/watch/order-event.js'
import { CHROMIUM, injectWallet, launchBrowser, listeningGateway } from '../helpers/browser.js'
import { orderBody, picks } from '../helpers/picks.js'
import { orderEvent } from '../wallet-stream/setup.js'

const ARTIFACTS = join(process.cwd(), 'test-artifacts')
/** Generous: two cores shared by the whole suite, and a browser. */
const STEP_MS = 20_000

if (!CHROMIUM) t.comment('skipped: no Chromium')
t.setTimeout(180_000)

type Order = OrderEvent['order']

t.test(
  'an order created elsewhere and its status change appear without a reload',
  { skip: !CHROMIUM },
  async (t) => {
    const gw = await listeningGateway(t, 'localhost')
    const p = picks(gw.sandbox.control.tokens())
    const browser = await launchBrowser(t)
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await injectWallet(page)
    await page.goto(`${gw.origin}/`)
    await page.getByRole('button', { name: 'Sign in with wallet' }).click()
    await page.locator('#history-list').filter({ hasText: 'No orders yet.' }).waitFor({ timeout: STEP_MS })
    await page.evaluate(() => Object.assign(window, { notReloaded: true }))

    // The same user on another device: the session's cookie, through the API.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
    const res = await fetch(`${gw.origin}/api/v1/orders/create`, {
      method: 'POST',
      headers: { cookie, origin: gw.origin, 'content-type': 'application/json' },
      body: JSON.stringify(orderBody(p)),
    })
    t.equal(res.status, 201)
    const created = (await res.json()) as Order
    t.ok(created.userId, "the order is the user's")
    await gw.app.orderEvents.publish(orderEvent(created))
    const item = page.locator(`#history-list button[data-uuid="${created.uuid}"]`)
    await item.filter({ hasText: 'AWAITING_USER_DEPOSIT' }).waitFor({ timeout: STEP_MS })

    gw.sandbox.control.deposit(created.uuid)
    const moved = (await (await fetch(`${gw.origin}/api/v1/orders/${created.uuid}`)).json()) as Order
    await gw.app.orderEvents.publish(orderEvent(moved, 'AWAITING_USER_DEPOSIT'))
    await item.locator('.state').filter({ hasText: moved.status }).waitFor({ timeout: STEP_MS })
    t.equal(await item.locator('.state').innerText(), moved.status, 'the new status, without a click')
    t.equal(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded), true, 'no reload')
    t.equal(await page.getByRole('alert').count(), 0, 'no error shown')

    await mkdir(ARTIFACTS, { recursive: true })
    await page.locator('#history').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(ARTIFACTS, 'wallet-stream-history-1280.png') })
    await context.close()
  },
)
