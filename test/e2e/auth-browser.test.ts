// A real browser (headless Chromium) signs in through the gateway from a frontend on another port of
// localhost, as a dev server would (allowed with no configuration outside production): CORS
// preflights, a message naming the page, the HttpOnly cookie kept by the browser and sent with
// credentials, an attributed order in the history, and sign-out. A page on a foreign origin gets nothing.
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import { chromium } from 'playwright-core'
import t, { type Test } from 'tap'
import { newWallet } from '../helpers/wallet.js'
import { startGateway } from '../helpers/gateway.js'
import { orderBody, picks } from '../helpers/picks.js'
import { freePort, listen } from '../helpers/ports.js'

const CHROMIUM = [chromium.executablePath(), '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) =>
  existsSync(p),
)

/** A page's server; `host` names it in the browser (the browser maps STRANGER to loopback). */
async function frontend(t: Test, host = 'localhost'): Promise<string> {
  const server = createServer((_req, res) => res.end('<!doctype html><title>frontend</title>'))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  return `http://${host}:${await listen(server)}`
}

const STRANGER = 'stranger.example'

t.test(
  'a browser signs in with one signature and never sees an upstream token',
  { skip: !CHROMIUM && 'no Chromium' },
  async (t) => {
    const app = await frontend(t)
    const stranger = await frontend(t, STRANGER)
    const port = await freePort()
    const api = `http://localhost:${port}`
    const gw = await startGateway(t, { env: { PUBLIC_ORIGIN: api } })
    await gw.app.listen({ port, host: 'localhost' })

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', `--host-resolver-rules=MAP ${STRANGER} localhost`],
    })
    t.teardown(() => browser.close())
    const page = await browser.newPage()
    const wallet = newWallet()
    // The wallet extension, as far as the page is concerned.
    await page.exposeFunction('walletSign', (message: string) => wallet.signMessage({ message }))
    await page.goto(app)

    const p = picks(gw.sandbox.control.tokens())
    const seen = await page.evaluate(
      async ({ api, address, order }) => {
        const call = async (path: string, init: RequestInit = {}) => {
          const res = await fetch(api + path, { credentials: 'include', ...init })
          const text = await res.text()
          return { status: res.status, body: text ? JSON.parse(text) : undefined, raw: text }
        }
        const post = (path: string, body?: unknown) =>
          call(path, {
            method: 'POST',
            ...(body === undefined
              ? {}
              : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
          })
        const challenge = await call(`/api/auth/siwx/challenge?address=${address}&chainId=1`)
        const signature = await (
          globalThis as unknown as { walletSign(m: string): Promise<string> }
        ).walletSign(challenge.body.message)
        const verify = await post('/api/auth/siwx/verify', {
          data: { chainId: '1', accountAddress: address },
          message: challenge.body.message,
          signature,
        })
        const cookieVisible = (globalThis as unknown as { document: { cookie: string } }).document.cookie
        const session = await call('/api/auth/session')
        const created = await post('/api/v1/orders/create', order)
        const history = await call('/api/v1/orders')
        const logout = await post('/api/auth/logout')
        const after = await call('/api/auth/session')
        return { challenge, verify, cookieVisible, session, created, history, logout, after }
      },
      { api, address: wallet.address, order: orderBody(p) },
    )

    t.equal(seen.challenge.status, 200)
    t.match(
      seen.challenge.body.message,
      new RegExp(`^${app} wants you to sign in`),
      'the message names the page',
    )
    t.equal(seen.verify.status, 201, seen.verify.raw)
    t.same(Object.keys(seen.verify.body).sort(), [
      'address',
      'chainId',
      'expiresAt',
      'expiresIn',
      'signedIn',
      'userId',
    ])
    t.equal(seen.cookieVisible, '', 'page script cannot read the HttpOnly session cookie')
    t.equal(seen.session.body.signedIn, true, 'the browser sent the cookie back with credentials')
    t.equal(seen.created.status, 201)
    t.equal(seen.created.body.userId, seen.verify.body.userId, 'the order is attributed')
    t.same(
      seen.history.body.items.map((o: { uuid: string }) => o.uuid),
      [seen.created.body.uuid],
    )
    t.equal(seen.logout.status, 204)
    t.same(seen.after.body, { signedIn: false }, 'signed out')
    const cookies = await page.context().cookies(api)
    t.same(cookies, [], 'the browser dropped the session cookie')
    t.notMatch(JSON.stringify(seen), /eyJ[\w-]+\.[\w-]+/, 'no JWT ever reached page script')

    await page.goto(stranger)
    const foreign = await page.evaluate(async (api) => {
      try {
        await fetch(`${api}/api/auth/session`, { credentials: 'include' })
        return 'answered'
      } catch {
        return 'blocked'
      }
    }, api)
    t.equal(foreign, 'blocked', 'a foreign page cannot read the gateway')
  },
)
