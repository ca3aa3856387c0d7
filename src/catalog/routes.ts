// GET /v1/tokens (the upstream's bytes, or a filtered subset), /v1/tokens/:id and /v1/chains, all
// served from the catalog cache. Nothing here serialises or compresses the full catalog.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { RouteAnswers, SuccessAnswer } from '../edge/route-answers.js'
import { documented } from '../edge/wire-types.js'
import { problems } from '../problems.js'
import { blockchainSchema, catalogSchema, tokenSchema } from '../upstream/schemas.js'
import type { DerivedBodies } from './bodies.js'
import type { CatalogCache } from './cache.js'
import { tokenParams, tokensQuery } from './schemas.js'
import type { SendBody } from './send.js'
import { distinctChains, filterKey, selectTokens } from './views.js'

export interface CatalogRoutesOptions {
  cache: CatalogCache
  bodies: DerivedBodies
  send: SendBody
}

const CATALOG_HEADERS = {
  ETag: 'Strong validator of the body; send it back in If-None-Match.',
  'Cache-Control': 'A short max-age with stale-while-revalidate.',
  'X-Cache-Status': 'HIT, MISS or STALE (the upstream is down and the last good catalog is served).',
}
const NOT_MODIFIED: SuccessAnswer = {
  description: 'Not modified: the If-None-Match ETag is current.',
  headers: CATALOG_HEADERS,
}
/** A catalog answer: 200 with the body, or 304. */
const served = (
  description: string,
  body: SuccessAnswer['body'],
  own: RouteAnswers['problems'],
): RouteAnswers => ({
  success: { 200: { description, body, headers: CATALOG_HEADERS }, 304: NOT_MODIFIED },
  problems: ['VALIDATION_FAILED', 'UPSTREAM_UNAVAILABLE', ...own],
})

export async function catalogRoutes(app: FastifyInstance, opts: CatalogRoutesOptions) {
  const { cache, bodies, send } = opts
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get(
    '/v1/tokens',
    {
      schema: {
        querystring: tokensQuery,
        summary: 'The token catalog, optionally filtered',
        description:
          "Every token of the swap service's catalog, served from the gateway's copy (no upstream call per request), optionally filtered by `tradable`, `network`, `symbol` or `q`. Send the `ETag` back in `If-None-Match` for a 304; br and gzip by `Accept-Encoding`.",
        tags: ['catalog'],
        operationId: 'listTokens',
      },
      config: {
        group: 'catalog',
        answers: served('The token catalog, as the upstream sends it, filtered.', catalogSchema, []),
      },
    },
    async (request, reply) => {
      const { version, status } = cache.fresh() ?? (await cache.read(request))
      const key = filterKey(request.query)
      const body =
        key === undefined
          ? version.catalog
          : bodies.get(version, `tokens?${key}`, () => selectTokens(version.tokens, request.query))
      return send(request, reply, body, status)
    },
  )

  routes.get(
    '/v1/tokens/:id',
    {
      schema: {
        params: tokenParams,
        summary: 'One token of the catalog',
        description: "One token of the catalog by its id, from the gateway's copy of the catalog.",
        tags: ['catalog'],
        operationId: 'getToken',
      },
      config: {
        group: 'catalog',
        answers: served('One token of the catalog.', tokenSchema, ['TOKEN_NOT_FOUND']),
      },
    },
    async (request, reply) => {
      const { id } = request.params
      let { version, status } = cache.fresh() ?? (await cache.read(request))
      if (!version.byId.has(id)) {
        const fresher = await cache.refreshForUnknownId(request)
        if (fresher) ({ version, status } = { version: fresher, status: 'MISS' })
      }
      const token = version.byId.get(id)
      if (!token) throw problems.tokenNotFound(id)
      const body = bodies.get(version, `token/${id}`, () => token)
      return send(request, reply, body, status)
    },
  )

  routes.get(
    '/v1/chains',
    {
      schema: {
        summary: 'The distinct chains of the catalog',
        description:
          "The chains the catalog's tokens are on, each once, from the gateway's copy of the catalog.",
        tags: ['catalog'],
        operationId: 'listChains',
      },
      config: {
        group: 'catalog',
        answers: served(
          'The distinct chains of the catalog.',
          documented(z.array(blockchainSchema), { maxItems: 1000 }),
          [],
        ),
      },
    },
    async (request, reply) => {
      const { version, status } = cache.fresh() ?? (await cache.read(request))
      const body = bodies.get(version, 'chains', () => distinctChains(version.tokens))
      return send(request, reply, body, status)
    },
  )
}
