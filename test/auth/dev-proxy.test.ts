// Sign-in behind the development proxies frontend teams use, with the exact headers each sends
// upstream for a page's same-origin requests (the browser's own, Host rewritten or not, forwarding
// headers added): Vite's server.proxy (its string shorthand sets changeOrigin, its object form does
// not), webpack-dev-server's devServer.proxy (http-proxy-middleware, changeOrigin off by default),
// and Next.js rewrites (changeOrigin and X-Forwarded-* always). The challenge GET carries no Origin;
// its message must name the page, and the verify POST (with the page's Origin) must accept it. A
// Referer naming a page the gateway does not allow is never named: the message names PUBLIC_ORIGIN.
import t, { type Test } from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { signedBody } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const CHROME = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  'sec-ch-ua': '"Chromium";v="142", "Not_A Brand";v="99"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
}

/** What a browser sends on a fetch from `page` to its own origin: no Origin on a GET. */
const sameOrigin = (page: string, method: 'GET' | 'POST') => ({
  ...CHROME,
  'sec-fetch-site': 'same-origin',
  referer: `${page}/swap`,
  ...(method === 'POST' ? { origin: page, 'content-type': 'application/json' } : {}),
})

interface ProxySetup {
  name: string
  /** The page's origin (the dev server's). */
  page: string
  /** PUBLIC_ORIGIN: where the proxy sends `/api`. */
  gateway: string
  /** The headers the proxy sends on, given the browser's. */
  forward(browser: Record<string, string>): Record<string, string>
}

/** http-proxy without an agent closes each upstream connection. */
const httpProxy = (browser: Record<string, string>, hostHeader: string) => ({
  ...browser,
  host: hostHeader,
  connection: 'close',
})

const SETUPS: ProxySetup[] = [
  {
    name: "Vite, server.proxy { '/api': 'http://localhost:3000' } (changeOrigin)",
    page: 'http://localhost:5173',
    gateway: 'http://localhost:3000',
    forward: (b) => httpProxy(b, 'localhost:3000'),
  },
  {
    name: "Vite, server.proxy { '/api': { target } } (Host kept)",
    page: 'http://localhost:5173',
    gateway: 'http://localhost:3000',
    forward: (b) => httpProxy(b, 'localhost:5173'),
  },
  {
    name: "webpack-dev-server, devServer.proxy [{ context: ['/api'], target }] (Host kept)",
    page: 'http://localhost:8080',
    gateway: 'http://localhost:3000',
    forward: (b) => httpProxy(b, 'localhost:8080'),
  },
  {
    name: 'webpack-dev-server, devServer.proxy with changeOrigin: true',
    page: 'http://localhost:8080',
    gateway: 'http://localhost:3000',
    forward: (b) => httpProxy(b, 'localhost:3000'),
  },
  {
    name: "Next.js rewrites, { source: '/api/:path*', destination: 'http://localhost:4000/api/:path*' }",
    page: 'http://localhost:3000',
    gateway: 'http://localhost:4000',
    forward: (b) => ({
      ...httpProxy(b, 'localhost:4000'),
      'x-forwarded-host': 'localhost:3000',
      'x-forwarded-port': '3000',
      'x-forwarded-proto': 'http',
      'x-forwarded-for': '::1',
    }),
  },
]

async function gatewayAt(t: Test, publicOrigin: string, env: Record<string, string> = {}) {
  const gw = await startGateway(t, { env: { PUBLIC_ORIGIN: publicOrigin, ...env } })
  const wallet = newWallet()
  const challenge = async (headers: Record<string, string>) => {
    const res = await gw.app.inject({
      url: `/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`,
      headers,
    })
    t.equal(res.statusCode, 200, res.body)
    return res.json<{ message: string }>().message
  }
  const verify = async (message: string, headers: Record<string, string>) =>
    gw.app.inject({
      method: 'POST',
      url: '/api/auth/siwx/verify',
      headers,
      payload: await signedBody(wallet, message),
    })
  return { challenge, verify }
}

const firstLine = (message: string) => message.split('\n')[0]

t.test('behind each development proxy the challenge names the page and the verify accepts it', async (t) => {
  for (const setup of SETUPS) {
    await t.test(setup.name, async (t) => {
      const gw = await gatewayAt(t, setup.gateway)
      const message = await gw.challenge(setup.forward(sameOrigin(setup.page, 'GET')))
      t.equal(firstLine(message), `${setup.page} wants you to sign in with your Ethereum account:`)
      t.match(message, `\nURI: ${setup.page}\n`)
      const res = await gw.verify(message, setup.forward(sameOrigin(setup.page, 'POST')))
      t.equal(res.statusCode, 201, res.body)
    })
  }
})

t.test('a page sending no Referer is named by the Host a proxy kept, never by one it changed', async (t) => {
  const [changed, kept] = SETUPS
  const noReferer = (page: string) => {
    const { referer: _referer, ...headers } = sameOrigin(page, 'GET')
    return headers
  }
  const gw = await gatewayAt(t, 'http://localhost:3000')
  t.equal(
    firstLine(await gw.challenge(kept!.forward(noReferer(kept!.page)))),
    `${kept!.page} wants you to sign in with your Ethereum account:`,
  )
  t.equal(
    firstLine(await gw.challenge(changed!.forward(noReferer(changed!.page)))),
    'http://localhost:3000 wants you to sign in with your Ethereum account:',
    'the Host names the gateway itself: PUBLIC_ORIGIN',
  )
})

t.test(
  'a Referer naming a page the gateway does not allow gets a message naming PUBLIC_ORIGIN',
  async (t) => {
    const publicOrigin = 'https://app.example'
    const gw = await gatewayAt(t, publicOrigin, {
      NODE_ENV: 'production',
      ALLOWED_ORIGINS: 'https://partner.example',
    })
    const asked = async (referer: string, extra: Record<string, string> = {}) =>
      firstLine(
        await gw.challenge({
          ...CHROME,
          host: 'app.example',
          'sec-fetch-site': 'same-origin',
          referer,
          ...extra,
        }),
      )
    const named = (site: string) => `${site} wants you to sign in with your Ethereum account:`
    for (const referer of [
      'https://evil.example/phish',
      'http://localhost:5173/',
      'http://app.example/',
      'https://app.example.evil.example/',
      'https://partner.example@evil.example/',
      'not a url',
      'javascript:alert(1)',
    ]) {
      t.equal(await asked(referer), named('app.example'), referer)
    }
    // The Host is not asked once a Referer has named the page, even when the Host is an allowed origin.
    t.equal(
      await asked('https://evil.example/', { host: 'partner.example' }),
      named('app.example'),
      'Host ignored',
    )
    t.equal(await asked('https://partner.example/swap'), named('partner.example'), 'an allowed page is named')
    t.equal(
      await asked('https://partner.example/swap', { 'sec-fetch-site': 'cross-site' }),
      named('app.example'),
      'a Referer on a request the browser did not mark same-origin names nothing',
    )
  },
)
