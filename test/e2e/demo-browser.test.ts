// The demo app at `/`, driven in headless Chromium against the gateway started as `npm start` starts it
// (the real process, with its built-in sandbox): an anonymous swap followed to COMPLETED through the
// sandbox buttons, a wallet sign-in through an injected EIP-1193 provider backed by a real private key,
// a lapsed session signed back in, an error shown by its code, the same page served from a second
// origin, and screenshots at desktop and phone width (test-artifacts/, to look at).
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { hexToString, type Hex } from 'viem'
import { pageProblems } from '../helpers/browser.js'
import { eventually } from '../helpers/eventually.js'
import { ETH_ADDRESS } from '../helpers/picks.js'
import { freePort, listen } from '../helpers/ports.js'
import { runGateway } from '../helpers/process.js'
import { newWallet } from '../helpers/wallet.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking']
const ARTIFACTS = join(process.cwd(), 'test-artifacts')
/** Generous: two cores shared by the whole suite, and a browser. */
const STEP_MS = 20_000

// The sandbox's catalog is fixed (docs/sandbox.md): USDT on Ethereum and Ether itself.
const USDT_ETH = 19
const ETH = 2

if (!existsSync(CHROMIUM)) t.comment(`skipped: no Chromium at ${CHROMIUM} (.ci/run installs it)`)
t.setTimeout(300_000)

async function startGateway(t: Test): Promise<string> {
  const port = await freePort()
  const gw = runGateway({ PORT: String(port), HOST: '127.0.0.1' })
  t.teardown(() => gw.child.kill('SIGKILL'))
  await gw.waitFor((l) => String(l.msg).startsWith('Server listening'), 60_000)
  return `http://localhost:${port}`
}

/** A wallet extension as far as the page can tell: window.ethereum, signing with a key held in Node. */
async function withWallet(page: Page) {
  const account = newWallet()
  const signed: string[] = []
  await page.exposeFunction('demoWalletSign', async (hex: Hex) => {
    signed.push(hexToString(hex))
    return account.signMessage({ message: { raw: hex } })
  })
  await page.addInitScript((address: string) => {
    const sign = (globalThis as unknown as { demoWalletSign(hex: string): Promise<string> }).demoWalletSign
    Object.assign(globalThis, {
      ethereum: {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address]
          if (method === 'eth_chainId') return '0x1'
          if (method === 'personal_sign') return sign(String(params?.[0]))
          throw Object.assign(new Error(`${method} is not supported`), { code: 4200 })
        },
      },
    })
  }, account.address)
  return { account, signed }
}

const status = (page: Page, text: string) =>
  page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: STEP_MS })

/** The sandbox's tokens last 15 minutes; the gateway reports a session's expiry a minute early. */
const SHOWN_LIFE_MS = 14 * 60_000

/**
 * The time left the page shows, made exact: the page's clock (Date.now only; its timers run on) is
 * pinned to the session's reported expiry less 14 minutes, so whatever second the page renders in, it
 * must show 14:00. Resolves with that expiry.
 */
async function showsFullSession(page: Page, base: string): Promise<number> {
  let expiresAt = NaN
  await eventually(
    'a signed-in session',
    async () => {
      const session = (await (await page.request.get(`${base}/api/auth/session`)).json()) as {
        signedIn: boolean
        expiresAt?: string
      }
      expiresAt = session.signedIn ? Date.parse(session.expiresAt ?? '') : NaN
      return !Number.isNaN(expiresAt)
    },
    STEP_MS,
  )
  await page.clock.setFixedTime(expiresAt - SHOWN_LIFE_MS)
  await page
    .locator('#wallet-state')
    .filter({ hasText: /session 14:00 left$/ })
    .waitFor({ timeout: STEP_MS })
  return expiresAt
}

/** The whole page, or (`fullPage: false`) what the user sees where they are scrolled to. */
async function screenshot(page: Page, name: string, fullPage = true) {
  await mkdir(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage })
}

t.test('the demo app in Chromium', { skip: !existsSync(CHROMIUM) && 'no Chromium' }, async (t) => {
  const base = await startGateway(t)
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  t.teardown(() => browser.close())
  const newPage = async (t: Test, width = 1280) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } })
    t.teardown(() => context.close())
    const page = await context.newPage()
    const problems = pageProblems(page)
    return { page, problems }
  }
  const noProblems = (t: Test, problems: string[]) =>
    t.same(problems, [], 'no script error and no CSP violation on the page')

  await t.test('an anonymous swap, from picking the tokens to COMPLETED seen on the stream', async (t) => {
    const { page, problems } = await newPage(t)
    const creates: Array<Record<string, string>> = []
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/orders/create')) creates.push(r.headers())
    })
    const answer = await page.goto(base)
    const csp = answer?.headers()['content-security-policy'] ?? ''
    t.match(csp, /script-src 'self'/, 'scripts from the gateway only')
    t.notMatch(csp, /unsafe-inline|unsafe-eval/, 'no inline script')

    await page.getByLabel('Search tokens to send').fill('usdt')
    await page.getByLabel('Token to send').selectOption({ label: 'USDT · Tether USD · Ethereum' })
    await page.getByLabel('Search tokens to receive').fill('ethereum')
    await page.getByLabel('Token to receive').selectOption(String(ETH))
    await page.getByLabel('Amount').fill('250')
    await page.getByRole('button', { name: 'Get quote' }).click()
    await page
      .locator('#quote')
      .filter({ hasText: '≈' })
      .filter({ hasText: 'ETH' })
      .waitFor({ timeout: STEP_MS })
    await page.locator('#limits').filter({ hasText: 'This pair takes' }).waitFor({ timeout: STEP_MS })
    t.match(page.url(), `from=${USDT_ETH}&to=${ETH}&amount=250`, 'the address bar is a deep link to the form')

    await page.getByLabel('Receiving address').fill(ETH_ADDRESS)
    await page.getByRole('button', { name: 'Create order' }).click()
    await status(page, 'AWAITING_USER_DEPOSIT')
    t.match(creates[0]?.['idempotency-key'], /^[0-9a-f-]{32,36}$/, 'create carries an Idempotency-Key')
    const deposit = page.locator('#deposit')
    t.match(await deposit.innerText(), /Send between 15 USDT and [\d,]+ USDT on Ethereum/, 'the bounds')
    t.match(await deposit.locator('code').innerText(), /^0x[0-9a-fA-F]{40}$/, 'the deposit address')
    t.match(await deposit.locator('.countdown').innerText(), /^(30:00|29:\d\d)$/, 'a countdown to timeout')
    await screenshot(page, 'demo-order-1280.png')

    await page.getByRole('button', { name: 'Simulate deposit' }).click()
    await status(page, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
    await page.getByRole('button', { name: 'Confirm deposit' }).click()
    await status(page, 'PROCESSING')
    await page.getByRole('button', { name: 'Fill order' }).click()
    await status(page, 'COMPLETED')
    const details = await page.locator('#order-details').innerText()
    t.match(details, /Deposited\s+250 USDT/, 'the final deposit')
    t.match(details, /Received\s+0\.0\d+ ETH/, 'the final amount received')
    const link = page.getByRole('link', { name: 'View the withdrawal' })
    t.match(await link.getAttribute('href'), /^https:\/\/etherscan\.io\//, 'the withdrawal link')
    t.equal(creates.length, 1, 'one create')

    await screenshot(page, 'demo-completed-1280.png')
    await page.setViewportSize({ width: 360, height: 780 })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    t.equal(overflow, 0, 'nothing wider than a 360 px phone')
    await screenshot(page, 'demo-completed-360.png')
    noProblems(t, problems)
  })

  await t.test(
    'a deep link prefills the form, and a bad receiving address shows INVALID_ADDRESS',
    async (t) => {
      const { page, problems } = await newPage(t, 360)
      await page.goto(`${base}/?from=${USDT_ETH}&to=${ETH}&amount=42&address=not-an-address`)
      await page.locator('#quote').filter({ hasText: '≈' }).waitFor({ timeout: STEP_MS })
      t.equal(await page.getByLabel('Token to send').inputValue(), String(USDT_ETH))
      t.equal(await page.getByLabel('Token to receive').inputValue(), String(ETH))
      t.equal(await page.getByLabel('Amount').inputValue(), '42')
      t.equal(await page.getByLabel('Receiving address').inputValue(), 'not-an-address')
      await page.getByRole('button', { name: 'Create order' }).click()
      const alert = page.getByRole('alert').filter({ hasText: 'INVALID_ADDRESS' })
      await alert.waitFor({ timeout: STEP_MS })
      t.match(await alert.innerText(), /INVALID_ADDRESS\s+.+ETH/, "the problem's code and detail")
      t.equal(await page.getByLabel('Receiving address').getAttribute('aria-invalid'), 'true')
      await screenshot(page, 'demo-error-360.png', false)
      noProblems(t, problems)
    },
  )

  await t.test('sign in with a wallet, see the order in history, sign again after a lapse', async (t) => {
    const { page, problems } = await newPage(t)
    const wallet = await withWallet(page)
    await page.goto(`${base}/?from=${USDT_ETH}&to=${ETH}&amount=100&address=${ETH_ADDRESS}`)
    const state = page.locator('#wallet-state')
    await state.filter({ hasText: 'Not signed in' }).waitFor({ timeout: STEP_MS })

    const signing = Date.now()
    await page.getByRole('button', { name: 'Sign in with wallet' }).click()
    await state.filter({ hasText: /left$/ }).waitFor({ timeout: STEP_MS })
    const signedIn = Date.now()
    t.match(await state.innerText(), new RegExp(`${wallet.account.address.slice(0, 6)}…`), 'the address')
    // The token was issued in a whole second between the click and the page showing the session.
    const issued = (await showsFullSession(page, base)) - SHOWN_LIFE_MS
    t.ok(
      issued >= Math.floor(signing / 1000) * 1000 && issued <= signedIn,
      'a session of 15 minutes less one',
    )
    t.match(await state.innerText(), /session 14:00 left/, "the session's time left")
    t.match(
      wallet.signed[0],
      new RegExp(`^(http://)?${new URL(base).host} wants you to sign in`),
      'names the gateway',
    )

    await page.getByRole('button', { name: 'Create order' }).click()
    await status(page, 'AWAITING_USER_DEPOSIT')
    const uuid = await page.locator('#order-details code').first().innerText()
    const item = page.locator(`#history-list button[data-uuid="${uuid}"]`)
    await item.waitFor({ timeout: STEP_MS })
    await screenshot(page, 'demo-signed-in-1280.png')

    // The sandbox lapses every session now; the page's next call is answered SESSION_EXPIRED, and the
    // client signs again with the wallet it holds and repeats the call.
    const lapse = await fetch(`${base}/api/sandbox/sessions/lapse`, { method: 'POST' })
    t.equal(lapse.status, 204, 'sessions lapsed')
    await page.getByRole('button', { name: 'Refresh history' }).click()
    await eventually('a new signature', () => wallet.signed.length === 2, STEP_MS)
    await showsFullSession(page, base)
    await item.waitFor({ timeout: STEP_MS })
    t.equal(await page.getByRole('alert').count(), 0, 'no error shown')

    // After a reload the page holds no wallet yet: it shows the lapse and offers a new signature.
    t.equal((await fetch(`${base}/api/sandbox/sessions/lapse`, { method: 'POST' })).status, 204)
    await page.reload()
    await state.filter({ hasText: 'Session lapsed' }).waitFor({ timeout: STEP_MS })
    await page.getByRole('button', { name: 'Sign in with wallet' }).click()
    await state.filter({ hasText: /left$/ }).waitFor({ timeout: STEP_MS })
    t.equal(wallet.signed.length, 3, 'signed again')
    await item.waitFor({ timeout: STEP_MS })

    await page.getByRole('button', { name: 'Sign out' }).click()
    await state.filter({ hasText: 'Not signed in' }).waitFor({ timeout: STEP_MS })
    t.ok(await page.locator('#history').isHidden(), 'history hidden once signed out')
    noProblems(t, problems)
  })

  await t.test('the same page on a second origin signs in with a message naming that origin', async (t) => {
    // A static server holding the gateway's page and assets, as a team hosting its own build would,
    // pointed at the gateway through data-gateway.
    const server = createServer((req, res) => {
      void (async () => {
        const upstream = await fetch(`${base}${req.url === '/' ? '/' : req.url}`)
        const type = upstream.headers.get('content-type') ?? 'application/octet-stream'
        let body = Buffer.from(await upstream.arrayBuffer())
        if (type.startsWith('text/html'))
          body = Buffer.from(body.toString().replace('<body ', `<body data-gateway="${base}" `))
        res.writeHead(upstream.status, {
          'content-type': type,
          'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; connect-src ${base}; img-src data:`,
        })
        res.end(body)
      })()
    })
    const origin = `http://localhost:${await listen(server)}`
    t.teardown(() => new Promise((resolve) => server.close(resolve)))

    const { page, problems } = await newPage(t)
    const wallet = await withWallet(page)
    await page.goto(origin)
    const state = page.locator('#wallet-state')
    await state.filter({ hasText: 'Not signed in' }).waitFor({ timeout: STEP_MS })
    await page.getByRole('button', { name: 'Sign in with wallet' }).click()
    await state.filter({ hasText: /left$/ }).waitFor({ timeout: STEP_MS })
    t.match(
      wallet.signed[0],
      new RegExp(`^(http://)?${new URL(origin).host} wants you to sign in`),
      'names the page',
    )
    t.match(wallet.signed[0], new RegExp(`\\nURI: ${origin}\\n`))
    await page.locator('#history').waitFor({ timeout: STEP_MS })
    t.equal(await page.getByRole('alert').count(), 0, 'no error shown')
    noProblems(t, problems)
  })

  await t.test('an unfunded order expires through the sandbox control', async (t) => {
    const { page, problems } = await newPage(t)
    await page.goto(`${base}/?from=${USDT_ETH}&to=${ETH}&amount=100&address=${ETH_ADDRESS}`)
    await page.locator('#quote').filter({ hasText: '≈' }).waitFor({ timeout: STEP_MS })
    await page.getByRole('button', { name: 'Create order' }).click()
    await status(page, 'AWAITING_USER_DEPOSIT')
    await page.getByRole('button', { name: 'Expire order' }).click()
    await status(page, 'TIMED_OUT')
    t.equal(await page.locator('#deposit').innerText(), '', 'no deposit address offered any more')
    noProblems(t, problems)
  })
})
