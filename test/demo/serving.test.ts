// How the gateway serves the demo app: on by default outside production, DEMO=off and DEMO=on, the
// page's strict CSP, hashed assets cached for a year, and routes kept out of the API document.
import t from 'tap'
import { loadConfig } from '../../src/config.js'
import { startGateway, TEST_SESSION_SECRET } from '../helpers/gateway.js'

t.test('DEMO: on by default, off with DEMO=off, off in production unless DEMO=on', async (t) => {
  const production = {
    NODE_ENV: 'production',
    UPSTREAM_URL: 'https://up.example',
    TENANT_API_KEY: 'k',
    PUBLIC_ORIGIN: 'https://app.example',
  }
  t.equal(loadConfig({}).demo, true)
  t.equal(loadConfig({ DEMO: 'off' }).demo, false)
  t.equal(loadConfig({ ...production, SESSION_SECRET: TEST_SESSION_SECRET }).demo, false)
  t.equal(loadConfig({ ...production, SESSION_SECRET: TEST_SESSION_SECRET, DEMO: 'on' }).demo, true)
  t.throws(() => loadConfig({ DEMO: 'yes' }), { name: 'ConfigError', message: /DEMO/ })
})

t.test('with DEMO=off, / is a NOT_FOUND problem like any unknown path', async (t) => {
  const { app } = await startGateway(t, { env: { DEMO: 'off' } })
  const res = await app.inject({ url: '/' })
  t.equal(res.statusCode, 404)
  t.equal(res.json().code, 'NOT_FOUND')
})

t.test('/ is the demo page, under a CSP that allows scripts and styles from the gateway only', async (t) => {
  const { app } = await startGateway(t)
  const page = await app.inject({ url: '/' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  t.equal(page.headers['cache-control'], 'no-cache', 'revalidated: it names the current assets')
  const csp = String(page.headers['content-security-policy'])
  t.match(csp, /default-src 'none'/)
  t.match(csp, /script-src 'self'/)
  t.match(csp, /style-src 'self'/)
  t.match(csp, /connect-src 'self'/)
  t.match(csp, /frame-ancestors 'none'/)
  t.notMatch(csp, /unsafe/)
  t.notMatch(page.body, /<script>|<style|\sstyle=|\son\w+=/, 'no inline script or style in the page')
  t.match(page.body, /<body data-api-prefix="\/api">/, 'the page knows the API prefix')

  const script = /<script type="module" src="(\/demo\/app\.[\w-]+\.js)">/.exec(page.body)?.[1]
  const style = /<link rel="stylesheet" href="(\/demo\/styles\.[\w-]+\.css)">/.exec(page.body)?.[1]
  for (const [what, path, type] of [
    ['script', script, /^text\/javascript/],
    ['stylesheet', style, /^text\/css/],
  ] as const) {
    t.ok(path, `the page names its ${what}`)
    const asset = await app.inject({ url: path })
    t.equal(asset.statusCode, 200, `its ${what} is served`)
    t.match(asset.headers['content-type'], type)
    t.equal(
      asset.headers['cache-control'],
      'public, max-age=31536000, immutable',
      'hashed: cached for a year',
    )
    t.ok(asset.body.length > 1000, 'not empty')
  }
  const bundle = await app.inject({ url: script })
  t.match(bundle.body, '/v1/orders/create', 'the script bundles the typed client')
  t.notMatch(
    bundle.body,
    /ZodError|_zod/,
    'no zod in the page: the client takes only its types from the schemas',
  )

  const missing = await app.inject({ url: '/demo/app.nothing.js' })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'NOT_FOUND')
})

t.test('the demo routes are not in the API document', async (t) => {
  const { app } = await startGateway(t)
  const doc = (await app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> }
  t.same(
    Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/demo')),
    [],
  )
})

t.test('the script has a source map outside production and none in production', async (t) => {
  const scriptOf = async (app: Awaited<ReturnType<typeof startGateway>>['app']) => {
    const page = await app.inject({ url: '/' })
    const path = /src="(\/demo\/app\.[\w-]+\.js)"/.exec(page.body)?.[1] ?? '/demo/none.js'
    return { path, body: (await app.inject({ url: path })).body }
  }
  const development = await startGateway(t)
  const dev = await scriptOf(development.app)
  t.match(
    dev.body,
    /\/\/# sourceMappingURL=app\.[\w-]+\.js\.map\s*$/,
    'development: the script names its map',
  )
  t.equal((await development.app.inject({ url: `${dev.path}.map` })).statusCode, 200, 'and serves it')

  const production = await startGateway(t, {
    env: { NODE_ENV: 'production', DEMO: 'on', PUBLIC_ORIGIN: 'https://app.example' },
  })
  const prod = await scriptOf(production.app)
  t.ok(prod.body.length > 1000, 'production: the script is served')
  t.notMatch(prod.body, /sourceMappingURL/, 'without a sourceMappingURL comment')
  t.notMatch(prod.body, /\/work\/|src\/demo\/page/, 'nor a build path')
  const map = await production.app.inject({ url: `${prod.path}.map` })
  t.equal(map.statusCode, 404, 'its map is not served')
  t.equal(map.json().code, 'NOT_FOUND')
})
