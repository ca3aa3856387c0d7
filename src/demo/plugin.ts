// The demo app (docs/demo.md) at `/`: a page built on the typed client, with its script and styles
// under /demo/ and its service worker (the order's push notifications) at /sw.js. The files are bundled or read once, on the first request for them, so gateways that
// never serve the page (tests, API-only deployments) never pay for it. The routes are hidden from the
// API document.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { problems } from '../problems.js'
import { type DemoBundle, demoSource } from './bundle.js'
import { demoPage } from './document.js'

export interface DemoOptions {
  apiPrefix: string
  /** The same-origin mount of the sandbox's control routes; unset when the upstream is real. */
  sandboxPath?: string
  /** Bundled from the sources with a source map: outside production only. */
  sourceMaps: boolean
}

const ASSET_PATH = '/demo'
/** At the root, so that its scope (by default, its own folder) takes in the page at `/`. */
const WORKER_PATH = '/sw.js'

/** Scripts and styles from the gateway only, no inline code; the page talks to its own origin only. */
const PAGE_POLICY = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  connectSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
}

const assetParams = z.object({ file: z.string() })

export async function demoPlugin(app: FastifyInstance, opts: DemoOptions) {
  const source = demoSource({ sourceMap: opts.sourceMaps })
  if (!source) {
    throw new Error(
      "DEMO is on but this build has no demo files: build with `npm run build` (it bundles the demo's script), or set DEMO=off",
    )
  }
  const routes = app.withTypeProvider<ZodTypeProvider>()
  let built: Promise<DemoBundle & { page: string }> | undefined
  const bundle = () => {
    built ??= source().then((b) => ({
      ...b,
      page: demoPage({
        ...b,
        assetPath: ASSET_PATH,
        apiPrefix: opts.apiPrefix,
        sandboxPath: opts.sandboxPath,
      }),
    }))
    return built
  }

  routes.get(
    '/',
    {
      schema: { hide: true },
      config: {
        cspDirectives: PAGE_POLICY,
        answers: {
          hidden: 'the demo page, not part of the API',
          success: { 200: { description: 'The demo page.', contentType: 'text/html' } },
          problems: [],
        },
      },
    },
    async (_request, reply) => {
      const { page } = await bundle()
      // Revalidated on every visit: it names the current hashed assets.
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page)
    },
  )

  routes.get(
    WORKER_PATH,
    {
      schema: { hide: true },
      config: {
        answers: {
          hidden: "the demo page's service worker",
          success: { 200: { description: 'The service worker script.', contentType: 'text/javascript' } },
          problems: [],
        },
      },
    },
    async (_request, reply) => {
      const { assets, worker } = await bundle()
      // Not a hashed name (a worker is updated at its own URL): revalidated at every check.
      return reply
        .header('cache-control', 'no-cache')
        .type('text/javascript; charset=utf-8')
        .send(assets.get(worker)?.body)
    },
  )

  routes.get(
    `${ASSET_PATH}/:file`,
    {
      schema: { hide: true, params: assetParams },
      config: {
        answers: {
          hidden: "the demo page's assets",
          success: { 200: { description: 'A content-hashed script or style sheet of the demo page.' } },
          problems: ['NOT_FOUND'],
        },
      },
    },
    async (request, reply) => {
      const asset = (await bundle()).assets.get(request.params.file)
      if (!asset) throw problems.noSuchFile()
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(asset.type)
        .send(asset.body)
    },
  )
}
