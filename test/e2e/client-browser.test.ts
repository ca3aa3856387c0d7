// The typed client in a real browser (headless Chromium), signing in in cookie mode from a page of
// another port. On the gateway's own site (localhost and localhost) the browser keeps the session
// cookie and signIn resolves; from 127.0.0.1 to localhost (two sites to a browser) it keeps none, and
// signIn says so, naming both origins and the way out, instead of resolving into a page that is not
// signed in.
import { createServer } from 'node:http'
import type { Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { CHROMIUM, clientBundle, launchBrowser, listeningGateway } from '../helpers/browser.js'
import { listen } from '../helpers/ports.js'
import { newWallet } from '../helpers/wallet.js'

/** A frontend's server: a page and the client's bundle, on every host name that reaches it. */
async function frontend(t: Test): Promise<number> {
  const script = await clientBundle()
  const server = createServer((req, res) => {
    if (req.url === '/client.js') {
      res.setHeader('content-type', 'text/javascript')
      return res.end(script)
    }
    res.setHeader('content-type', 'text/html')
    res.end('<!doctype html><title>frontend</title>')
  })
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  return listen(server)
}

interface Outcome {
  signedIn?: boolean
  code?: string
  detail?: string
}

/** signIn from the page, with a wallet that signs through the test (an injected provider). */
function signInFrom(page: Page, api: string, address: string): Promise<Outcome> {
  return page.evaluate(
    async ({ api, address }) => {
      const { createGatewayClient } = (await import(
        '/client.js' as string
      )) as typeof import('swap-gateway-client')
      const client = createGatewayClient({ baseUrl: api })
      const sign = (window as unknown as { walletSign(hex: string): Promise<string> }).walletSign
      const provider = {
        request: async ({ method, params }: { method: string; params?: readonly unknown[] }) =>
          method === 'eth_requestAccounts'
            ? [address]
            : method === 'eth_chainId'
              ? '0x1'
              : sign(String(params?.[0])),
      }
      try {
        await client.signIn(provider)
        const session = await client.getSession()
        return { signedIn: session.signedIn }
      } catch (err) {
        const problem = err as { code?: string; detail?: string }
        return { code: problem.code, detail: problem.detail }
      }
    },
    { api, address },
  )
}

t.test(
  'signIn in cookie mode resolves where the browser keeps the cookie, and names both origins where it does not',
  { skip: !CHROMIUM && 'no Chromium' },
  async (t) => {
    const pagePort = await frontend(t)
    const { origin: api } = await listeningGateway(t, 'localhost')
    const browser = await launchBrowser(t)
    const wallet = newWallet()

    const sameSite = await browser.newPage()
    await sameSite.exposeFunction('walletSign', (hex: `0x${string}`) =>
      wallet.signMessage({ message: { raw: hex } }),
    )
    await sameSite.goto(`http://localhost:${pagePort}/`)
    t.same(
      await signInFrom(sameSite, api, wallet.address),
      { signedIn: true },
      'localhost to localhost: signed in',
    )

    const otherSite = await browser.newPage()
    await otherSite.exposeFunction('walletSign', (hex: `0x${string}`) =>
      wallet.signMessage({ message: { raw: hex } }),
    )
    const page = `http://127.0.0.1:${pagePort}`
    await otherSite.goto(`${page}/`)
    const refused = await signInFrom(otherSite, api, wallet.address)
    t.equal(
      refused.code,
      'COOKIE_NOT_KEPT',
      '127.0.0.1 to localhost: the browser kept no cookie, and signIn says so',
    )
    t.match(refused.detail, page, "naming the page's origin")
    t.match(refused.detail, api, "and the gateway's")
    t.match(refused.detail, /host name.*token mode/s, 'and the way out')
  },
)
