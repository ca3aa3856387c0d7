// A frontend team's development set-up, in a real browser (headless Chromium): the page on
// http://localhost:<port> and its dev server proxying `/api` to the gateway (http-proxy-middleware,
// the proxy of webpack-dev-server, over http-proxy as Vite's server.proxy), with `changeOrigin` and
// without. The page signs in with the typed client and an injected wallet, with no configuration:
// the challenge, a same-origin GET without Origin, names the page, and the verify (whose Origin is
// the page) accepts it.
import { createServer } from 'node:http'
import { createProxyMiddleware } from 'http-proxy-middleware'
import t, { type Test } from 'tap'
import { CHROMIUM, clientBundle, injectWallet, launchBrowser, listeningGateway } from '../helpers/browser.js'
import { listen } from '../helpers/ports.js'

interface DevServer {
  /** The page's origin, as the browser sees it. */
  origin: string
}

/** A dev server: its page (and the client's bundle), and `/api` proxied to the gateway at `api`. */
async function devServer(
  t: Test,
  api: string,
  { changeOrigin, referrerPolicy }: { changeOrigin: boolean; referrerPolicy?: string },
): Promise<DevServer> {
  const script = await clientBundle()
  const proxy = createProxyMiddleware({ target: api, changeOrigin, pathFilter: '/api' })
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/api/')) return void proxy(req, res, () => res.writeHead(404).end())
    if (req.url === '/client.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    const policy = referrerPolicy ? { 'referrer-policy': referrerPolicy } : {}
    res.writeHead(200, { 'content-type': 'text/html', ...policy }).end('<!doctype html><title>app</title>')
  })
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  return { origin: `http://localhost:${await listen(server)}` }
}

interface Outcome {
  signedIn?: boolean
  address?: string
  code?: string
  detail?: string
}

const PROXIES = [
  { name: 'a proxy that keeps Host', changeOrigin: false },
  { name: 'a proxy with changeOrigin', changeOrigin: true },
  {
    name: 'a proxy that keeps Host, the page sending no Referer',
    changeOrigin: false,
    referrerPolicy: 'no-referrer',
  },
]

t.test(
  'a page behind a development proxy signs in, its message naming the page',
  { skip: !CHROMIUM && 'no Chromium' },
  async (t) => {
    const gw = await listeningGateway(t, 'localhost')
    const browser = await launchBrowser(t)
    for (const setup of PROXIES) {
      await t.test(setup.name, async (t) => {
        const { origin } = await devServer(t, gw.origin, setup)
        t.not(origin, gw.origin, 'the page is on another origin than PUBLIC_ORIGIN')
        const page = await browser.newPage()
        t.teardown(() => page.close())
        const wallet = await injectWallet(page)
        await page.goto(origin)
        const outcome: Outcome = await page.evaluate(async () => {
          const { createGatewayClient } = (await import(
            '/client.js' as string
          )) as typeof import('swap-gateway-client')
          const client = createGatewayClient()
          const ethereum = (window as unknown as { ethereum: Parameters<typeof client.signIn>[0] }).ethereum
          try {
            await client.signIn(ethereum)
            const session = await client.getSession()
            return session.signedIn ? { signedIn: true, address: session.address } : { signedIn: false }
          } catch (err) {
            const problem = err as { code?: string; detail?: string }
            return { code: problem.code, detail: problem.detail }
          }
        })
        t.same(outcome, { signedIn: true, address: wallet.account.address }, 'signed in through the proxy')
        t.equal(wallet.signed.length, 1, 'one signature')
        t.match(wallet.signed[0], new RegExp(`^${origin} wants you to sign in with your Ethereum account:\n`))
        t.match(wallet.signed[0], `\nURI: ${origin}\n`, 'the URI is the page too')
      })
    }
  },
)
