// Headless Chromium (Debian's, never a downloaded one) for the browser tests, and a gateway listening
// on a free port under the host name a page reaches it by.
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import type { Test } from 'tap'
import { type GatewayOptions, startGateway } from './gateway.js'
import { freePort } from './ports.js'

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

/** A gateway whose PUBLIC_ORIGIN is where it listens: `http://<host>:<free port>`. */
export async function listeningGateway(t: Test, host: string, opts: GatewayOptions = {}) {
  const port = await freePort()
  const origin = `http://${host}:${port}`
  const gw = await startGateway(t, { ...opts, env: { PUBLIC_ORIGIN: origin, ...opts.env } })
  await gw.app.listen({ port, host })
  return { ...gw, origin }
}
