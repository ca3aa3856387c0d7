// The API reference at /api/docs in headless Chromium, checked by axe-core at a phone's width (375 px)
// and at a desktop's: laid out at the device's width (a viewport), and no critical or serious
// violation, with an operation open and "Try it out" pressed (its parameters, examples and body editor
// shown). Screenshots go to test-artifacts/ for a person to look at.
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import t from 'tap'
import { CHROMIUM, launchBrowser, listeningGateway } from '../helpers/browser.js'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const SHOTS = 'test-artifacts'

type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> }

t.test(
  'the reference page has no critical or serious axe violation at 375 px and at desktop width',
  { skip: !CHROMIUM && 'no Chromium' },
  async (t) => {
    const gw = await listeningGateway(t, '127.0.0.1')
    const browser = await launchBrowser(t)
    mkdirSync(SHOTS, { recursive: true })
    for (const [width, hash] of [
      [375, '#/pricing/getQuote'],
      [1280, '#/pricing/getQuote'],
      [375, '#/auth/verifySignIn'],
    ] as const) {
      const page = await browser.newPage({ viewport: { width, height: 800 } })
      await page.goto(`${gw.origin}/api/docs${hash}`)
      await page.getByRole('button', { name: 'Try it out' }).first().click()
      await page.getByRole('button', { name: 'Execute' }).waitFor()
      t.equal(
        await page.evaluate(() => document.documentElement.clientWidth),
        width,
        `laid out at ${width} px, not as a shrunken desktop page`,
      )
      await page.screenshot({ path: `${SHOTS}/reference-${width}-${hash.split('/').pop()}.png` })
      await page.evaluate(AXE)
      const violations = await page.evaluate(
        async () =>
          (
            await (
              globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }
            ).axe.run()
          ).violations,
      )
      const grave = violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      t.same(grave, [], `${hash} at ${width} px: no critical or serious violation`)
      await page.close()
    }
  },
)
