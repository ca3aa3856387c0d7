// Headless Chromium (Debian's, never a downloaded one) for the browser tests, a gateway listening
// on a free port under the host name a page reaches it by, and an injected wallet.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import { type Browser, chromium, type Page } from 'playwright-core'
import type { Test } from 'tap'
import { hexToString, type Hex } from 'viem'
import { type GatewayOptions, startGateway } from './gateway.js'
import { freePort } from './ports.js'
import { newWallet } from './wallet.js'

export const CHROMIUM = [chromium.executablePath(), '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => existsSync(p),
)

/** A browser, closed when the test ends. */
export async function launchBrowser(t: Test, args: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...args],
  })
  t.teardown(() => browser.close())
  return browser
}

/** The page's script errors and Content-Security-Policy violations, as they happen (expected: none). */
export function pageProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (err) => problems.push(err.message))
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) problems.push(m.text())
  })
  return problems
}

/** A gateway whose PUBLIC_ORIGIN is where it listens: `http://<host>:<free port>`. */
export async function listeningGateway(t: Test, host: string, opts: GatewayOptions = {}) {
  const port = await freePort()
  const origin = `http://${host}:${port}`
  const gw = await startGateway(t, { ...opts, env: { PUBLIC_ORIGIN: origin, ...opts.env } })
  await gw.app.listen({ port, host })
  return { ...gw, origin }
}

/**
 * A wallet extension as far as a page can tell: `window.ethereum` (EIP-1193), signing with a viem
 * private-key account held in Node. `refuse` makes the next that many signatures fail as a user's
 * "reject" does (EIP-1193 code 4001). Returns the account and the messages signed, in order.
 */
export async function injectWallet(page: Page) {
  const account = newWallet()
  const signed: string[] = []
  const control = { refuse: 0 }
  await page.exposeFunction('testWalletSign', async (hex: Hex) => {
    if (control.refuse > 0) {
      control.refuse--
      return { refused: true }
    }
    signed.push(hexToString(hex))
    return { signature: await account.signMessage({ message: { raw: hex } }) }
  })
  await page.addInitScript((address: string) => {
    type Answer = { signature?: string; refused?: boolean }
    const sign = (globalThis as unknown as { testWalletSign(hex: string): Promise<Answer> }).testWalletSign
    Object.assign(globalThis, {
      ethereum: {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address]
          if (method === 'eth_chainId') return '0x1'
          if (method === 'personal_sign') {
            const answer = await sign(String(params?.[0]))
            if (answer.refused) throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
            return answer.signature
          }
          throw Object.assign(new Error(`${method} is not supported`), { code: 4200 })
        },
      },
    })
  }, account.address)
  return { account, signed, control }
}

/** The client package as a frontend's bundler would ship it, from its sources. */
export async function clientBundle(): Promise<string> {
  const entry = fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url))
  const built = await esbuild.build({ entryPoints: [entry], bundle: true, write: false, format: 'esm' })
  return built.outputFiles[0]!.text
}
