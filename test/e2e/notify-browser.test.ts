// "Notify me" in the demo app, in headless Chromium: the permission asked on the click, the service
// worker registered from /sw.js, the subscription handed to the gateway, and the worker showing a
// pushed order event and bringing the demo to that order when the notification is clicked. Headless
// Chromium reaches no push service, so the page's PushManager hands out a subscription made here from
// real P-256 keys; the push itself is delivered to the worker through the DevTools protocol, as a
// push service would. Screenshots go to test-artifacts/ (to look at).
import { createECDH, randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { BrowserContext, Page, Worker } from 'playwright-core'
import t, { type Test } from 'tap'
import { CHROMIUM, launchBrowser, listeningGateway, pageProblems } from '../helpers/browser.js'
import { eventually } from '../helpers/eventually.js'
import { orderBody, picks } from '../helpers/picks.js'

const ARTIFACTS = join(process.cwd(), 'test-artifacts')
/** Generous: two cores shared with other jobs, and a browser. */
const STEP_MS = 20_000

if (!CHROMIUM) t.comment('skipped: no Chromium')
t.setTimeout(240_000)

/** A subscription as a push service would hand it out: real P-256 keys, a 16-byte auth secret. */
function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1')
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  }
}
type SubscriptionJson = ReturnType<typeof browserSubscription>

/**
 * The page's PushManager, as far as the page can tell: `subscribe` answers with `subscription`
 * (recording the key it was given), `getSubscription` with the one made so far.
 */
async function fakePushService(page: Page, subscription: SubscriptionJson) {
  await page.addInitScript((json: SubscriptionJson) => {
    let made: object | null = null
    const keys: string[] = []
    Object.assign(globalThis, { testPushKeys: keys })
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey as ArrayBuffer
      keys.push(btoa(String.fromCharCode(...new Uint8Array(key))))
      made = {
        endpoint: json.endpoint,
        options: { applicationServerKey: key, userVisibleOnly: options?.userVisibleOnly },
        toJSON: () => json,
        unsubscribe: async () => ((made = null), true),
      }
      return made as PushSubscription
    }
    PushManager.prototype.getSubscription = async () => made as PushSubscription | null
  }, subscription)
}

/** The demo's service worker, once registered. */
async function demoWorker(context: BrowserContext): Promise<Worker> {
  const found = () => context.serviceWorkers().find((w) => w.url().endsWith('/sw.js'))
  return found() ?? (await context.waitForEvent('serviceworker', { timeout: STEP_MS }))
}

/** Delivers a push to the origin's worker as a push service would (a trusted `push` event). */
async function deliverPush(page: Page, origin: string, data: object) {
  const cdp = await page.context().newCDPSession(page)
  const registered = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)
      if (ours) resolve(ours.registrationId)
    }),
  )
  await cdp.send('ServiceWorker.enable')
  const registrationId = await registered
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(data) })
}

type Shown = { title: string; body: string; tag: string; data: { orderId?: string } }
const notificationsOf = (worker: Worker) =>
  worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration }
    const shown = await scope.registration.getNotifications()
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as object }))
  }) as Promise<Shown[]>

async function screenshot(page: Page, name: string) {
  await mkdir(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true })
}

async function setUp(t: Test) {
  const gw = await listeningGateway(t, '127.0.0.1')
  const create = async () => {
    const res = await fetch(`${gw.origin}/api/v1/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(orderBody(picks(gw.sandbox.control.tokens()))),
    })
    return ((await res.json()) as { uuid: string }).uuid
  }
  const browser = await launchBrowser(t)
  const newPage = async (t: Test, options: { width?: number; permitted?: boolean } = {}) => {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: 900 },
      permissions: options.permitted === false ? [] : ['notifications'],
    })
    t.teardown(() => context.close())
    const page = await context.newPage()
    const problems = pageProblems(page)
    return { page, context, problems }
  }
  return { gw, create, newPage }
}

const state = (page: Page, text: RegExp) =>
  page.locator('#notify-state').filter({ hasText: text }).waitFor({ timeout: STEP_MS })

t.test('Notify me in Chromium', { skip: !CHROMIUM && 'no Chromium' }, async (t) => {
  const { gw, create, newPage } = await setUp(t)

  await t.test('the worker is served from the root, as script, revalidated', async (t) => {
    const res = await fetch(`${gw.origin}/sw.js`)
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /^text\/javascript/)
    t.equal(res.headers.get('cache-control'), 'no-cache')
    t.equal(res.headers.get('service-worker-allowed'), null, 'its default scope is the root already')
    t.match(await res.text(), /notificationclick/)
  })

  await t.test('subscribes the order on the click, then shows and opens what is pushed', async (t) => {
    const uuid = await create()
    const other = await create()
    const { page, context, problems } = await newPage(t)
    const subscription = browserSubscription('http://127.0.0.1:9/push/demo-subscription')
    await fakePushService(page, subscription)
    const posted: Array<{ body: unknown; status: number }> = []
    page.on('response', (res) => {
      if (res.request().method() === 'POST' && res.url().endsWith(`/orders/${uuid}/push-subscriptions`))
        posted.push({ body: res.request().postDataJSON(), status: res.status() })
    })

    await page.goto(`${gw.origin}/?order=${uuid}`)
    await page.getByRole('status').filter({ hasText: 'AWAITING_USER_DEPOSIT' }).waitFor({ timeout: STEP_MS })
    await state(page, /even with this page closed/)
    await screenshot(page, 'notify-offered.png')
    await page.getByRole('button', { name: 'Notify me' }).click()
    await state(page, /Notifications are on/)
    t.same(posted, [{ body: subscription, status: 201 }], "the browser's toJSON() reached the gateway: 201")
    const { publicKey } = (await (await fetch(`${gw.origin}/api/v1/push/public-key`)).json()) as {
      publicKey: string
    }
    const keys = await page.evaluate(() => (globalThis as unknown as { testPushKeys: string[] }).testPushKeys)
    t.same(
      keys,
      [Buffer.from(publicKey, 'base64url').toString('base64')],
      "subscribed with the gateway's key, as bytes",
    )
    await screenshot(page, 'notify-subscribed.png')

    const worker = await demoWorker(context)
    const push = {
      type: 'order.status_changed',
      orderId: other,
      status: 'COMPLETED',
      previousStatus: 'PROCESSING',
      at: new Date().toISOString(),
      title: 'Swap completed',
      body: 'You received 0.05 ETH.',
    }
    await deliverPush(page, gw.origin, push)
    await eventually('the notification', async () => (await notificationsOf(worker)).length > 0, STEP_MS)
    t.same(
      await notificationsOf(worker),
      [{ title: 'Swap completed', body: 'You received 0.05 ETH.', tag: other, data: { orderId: other } }],
      "the payload's title and body, one notification per order",
    )

    // A click on it: the open demo tab is told to show that order.
    await worker.evaluate(async () => {
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration
        dispatchEvent(event: Event): boolean
      }
      const [notification] = await scope.registration.getNotifications()
      const NotificationEvent = (globalThis as unknown as Record<string, new (...a: unknown[]) => Event>)
        .NotificationEvent!
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }))
    })
    await page.locator('#order-details').filter({ hasText: other }).waitFor({ timeout: STEP_MS })
    t.same(await notificationsOf(worker), [], 'the clicked notification is closed')
    t.same(problems, [], 'no script error and no CSP violation on the page')
  })

  await t.test('a denied permission and a browser without push say so, with no button', async (t) => {
    const uuid = await create()
    const denied = await newPage(t, { permitted: false })
    // Not asked yet, and the user says no when asked.
    await denied.page.addInitScript(() => {
      let permission: NotificationPermission = 'default'
      Object.defineProperty(Notification, 'permission', { get: () => permission })
      Notification.requestPermission = async () => (permission = 'denied')
    })
    await denied.page.goto(`${gw.origin}/?order=${uuid}`)
    await denied.page.getByRole('button', { name: 'Notify me' }).click()
    await state(denied.page, /blocked for this site/)
    t.equal(await denied.page.getByRole('button', { name: 'Notify me' }).count(), 0, 'no button to press')

    const phone = await newPage(t, { width: 360 })
    await phone.page.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager
    })
    await phone.page.goto(`${gw.origin}/?order=${uuid}`)
    await state(phone.page, /cannot show notifications.*Home Screen/)
    t.equal(await phone.page.getByRole('button', { name: 'Notify me' }).count(), 0)
    await screenshot(phone.page, 'notify-unsupported-phone.png')
  })

  await t.test('a gateway with Web Push off offers nothing', async (t) => {
    const uuid = await create()
    const { page } = await newPage(t)
    // As a production gateway without its keys answers.
    await page.route('**/api/v1/push/public-key', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Not found',
          status: 404,
          code: 'NOT_FOUND',
          detail: 'Not found',
          retryable: false,
          requestId: 'r',
        }),
      }),
    )
    const asked = page.waitForResponse('**/api/v1/push/public-key')
    await page.goto(`${gw.origin}/?order=${uuid}`)
    await page.getByRole('status').filter({ hasText: 'AWAITING_USER_DEPOSIT' }).waitFor({ timeout: STEP_MS })
    await asked
    t.equal(await page.locator('#notify').isHidden(), true, 'no Notify me, no text')
    t.equal(await page.locator('#alert').textContent(), '', 'and no error')
  })
})
