// A page the gateway serves itself, opened under another loopback name than PUBLIC_ORIGIN's (the log
// prints http://127.0.0.1:<port>; PUBLIC_ORIGIN defaults to http://localhost:<port>): its same-origin
// challenge GET carries no Origin (and, from the gateway's own pages, no Referer), so outside
// production the Host it used names the message's site when that is an allowed origin, and its verify
// (whose Origin is that alias) succeeds. In production, for a Host naming no allowed origin, and for
// a request no browser marked same-origin (apps, servers), the message names PUBLIC_ORIGIN.
import t from 'tap'
import { parseSiweMessage } from 'viem/siwe'
import { startGateway } from '../helpers/gateway.js'
import { signedBody } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

async function gateway(t: Parameters<typeof startGateway>[0], env: Record<string, string>) {
  const gw = await startGateway(t, { env })
  const wallet = newWallet()
  /** The challenge as a same-origin page under `host` asks it: Host, no Origin, no Referer. */
  const challenge = async (host: string, headers: Record<string, string> = SAME_ORIGIN) => {
    const res = await gw.app.inject({
      url: `/api/auth/siwx/challenge?address=${wallet.address}&chainId=1`,
      headers: { host, ...headers },
    })
    t.equal(res.statusCode, 200, `challenge under ${host}`)
    return res.json<{ nonce: string; message: string }>().message
  }
  const verify = async (message: string, origin: string) =>
    gw.app.inject({
      method: 'POST',
      url: '/api/auth/siwx/verify',
      headers: { host: new URL(origin).host, origin },
      payload: await signedBody(wallet, message),
    })
  return { challenge, verify, app: gw.app, sandbox: gw.sandbox }
}

const firstLine = (message: string) => message.split('\n')[0]
/** What a browser marks a same-origin request with (Fetch Metadata). */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' }

t.test('outside production a loopback alias of PUBLIC_ORIGIN gets a message naming itself', async (t) => {
  const aliases: Array<[publicOrigin: string, page: string]> = [
    ['http://localhost:3000', 'http://127.0.0.1:3000'],
    ['http://127.0.0.1:3000', 'http://localhost:3000'],
    ['http://localhost:3000', 'http://[::1]:3000'],
    ['http://[::1]:3000', 'http://127.0.0.1:3000'],
  ]
  for (const [publicOrigin, page] of aliases) {
    const gw = await gateway(t, { PUBLIC_ORIGIN: publicOrigin })
    const host = new URL(page).host
    const message = await gw.challenge(host)
    t.equal(firstLine(message), `${page} wants you to sign in with your Ethereum account:`, page)
    t.match(message, `\nURI: ${page}\n`)
    const res = await gw.verify(message, page)
    t.equal(res.statusCode, 201, `${page} beside ${publicOrigin}: signed in (${res.body})`)
  }
})

t.test('a Host naming no allowed origin, and any Host in production, gets PUBLIC_ORIGIN', async (t) => {
  const gw = await gateway(t, { PUBLIC_ORIGIN: 'http://localhost:3000' })
  // Outside production every loopback development server is allowed, on any port.
  for (const host of ['127.0.0.1:3001', 'localhost:5173', '127.0.0.1']) {
    t.equal(
      firstLine(await gw.challenge(host)),
      `http://${host} wants you to sign in with your Ethereum account:`,
    )
  }
  const others = [
    'evil.example:3000',
    'localhost:3000',
    '10.0.0.1:3000',
    '[::1',
    '127.0.0.1:3000@evil.example',
  ]
  for (const host of others) {
    t.equal(
      firstLine(await gw.challenge(host)),
      'http://localhost:3000 wants you to sign in with your Ethereum account:',
      host,
    )
  }
  for (const fetchSite of [undefined, 'same-site', 'cross-site', 'none']) {
    t.equal(
      firstLine(await gw.challenge('127.0.0.1:3000', fetchSite ? { 'sec-fetch-site': fetchSite } : {})),
      'http://localhost:3000 wants you to sign in with your Ethereum account:',
      `Sec-Fetch-Site ${fetchSite}: not a browser's same-origin request, the Host names nothing`,
    )
  }
  const production = await gateway(t, { NODE_ENV: 'production', PUBLIC_ORIGIN: 'http://localhost:3000' })
  t.equal(
    firstLine(await production.challenge('127.0.0.1:3000')),
    'http://localhost:3000 wants you to sign in with your Ethereum account:',
    'production: the public origin, whatever the Host',
  )
  // The message viem reads for PUBLIC_ORIGIN still parses as before.
  t.equal(parseSiweMessage(await production.challenge('localhost:3000')).domain, 'localhost:3000')
})

t.test('a page on an alias is refused a message naming the public origin', async (t) => {
  // What a page on 127.0.0.1 got before: a message for localhost, posted with its own Origin.
  const gw = await gateway(t, { PUBLIC_ORIGIN: 'http://localhost:3000' })
  const message = await gw.challenge('localhost:3000')
  const res = await gw.verify(message, 'http://127.0.0.1:3000')
  t.equal(res.statusCode, 401)
  t.equal(res.json().code, 'SIGNATURE_INVALID', 'a message for another site than the page')
})

t.test("a lapsed session's challenge names the alias too", async (t) => {
  const gw = await gateway(t, { PUBLIC_ORIGIN: 'http://localhost:3000' })
  const page = 'http://127.0.0.1:3000'
  const signedIn = await gw.verify(await gw.challenge('127.0.0.1:3000'), page)
  t.equal(signedIn.statusCode, 201)
  const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ')
  gw.sandbox.control.lapseSessions()
  // The page's history GET: same-origin, so no Origin; the upstream refuses the lapsed token.
  const res = await gw.app.inject({
    url: '/api/v1/orders',
    headers: { host: '127.0.0.1:3000', cookie, ...SAME_ORIGIN },
  })
  t.equal(res.json().code, 'SESSION_EXPIRED')
  t.equal(
    firstLine(res.json().challenge.message),
    `${page} wants you to sign in with your Ethereum account:`,
    'the re-sign message names the page too',
  )
})
