// GET /v1/tokens (the upstream's bytes, or a filtered subset), /v1/tokens/:id and /v1/chains, all
// served from the catalog cache. Nothing here serialises or compresses the full catalog.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { GatewayError } from '../errors.js'
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

export async function catalogRoutes(app: FastifyInstance, opts: CatalogRoutesOptions) {
  const { cache, bodies, send } = opts
  const routes = app.withTypeProvider<ZodTypeProvider>()
  const config = { group: 'catalog' as const }

  routes.get(
    '/v1/tokens',
    {
      schema: {
        querystring: tokensQuery,
        summary: 'The token catalog, optionally filtered',
        tags: ['catalog'],
      },
      config,
    },
    async (request, reply) => {
      const { version, status } = await cache.read(request)
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
    { schema: { params: tokenParams, summary: 'One token of the catalog', tags: ['catalog'] }, config },
    async (request, reply) => {
      const { id } = request.params
      let { version, status } = await cache.read(request)
      if (!version.byId.has(id)) {
        const fresher = await cache.refreshForUnknownId(request)
        if (fresher) ({ version, status } = { version: fresher, status: 'MISS' })
      }
      const token = version.byId.get(id)
      if (!token) {
        throw new GatewayError('TOKEN_NOT_FOUND', `No token has id ${id}.`, { members: { tokenId: id } })
      }
      const body = bodies.get(version, `token/${id}`, () => token)
      return send(request, reply, body, status)
    },
  )

  routes.get(
    '/v1/chains',
    { schema: { summary: 'The distinct chains of the catalog', tags: ['catalog'] }, config },
    async (request, reply) => {
      const { version, status } = await cache.read(request)
      const body = bodies.get(version, 'chains', () => distinctChains(version.tokens))
      return send(request, reply, body, status)
    },
  )
}
