// The OpenAPI 3.1 document (generated from the routes' own schemas at /api/openapi.json) and the docs
// pages (/api/docs, /api/docs/errors). `openapiCollector` must be registered before any route so that
// it sees them all; `docsRoutes` adds the routes that serve the result.
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { DOCS_STYLE_HASH, docsPage, errorsPage } from './docs-page.js'
import { errorCatalogue } from './error-catalogue.js'
import { completeDocument, type OpenApiDocument } from './openapi-document.js'

export interface DocsOptions {
  apiPrefix: string
  version: string
}

const DESCRIPTION = `A backend-for-frontend in front of a cross-chain swap service. Success bodies are the upstream's;
every failure is an \`application/problem+json\` document with a stable \`code\` (see the error codes).
Sessions: the session cookie set by sign-in, or \`Authorization: Bearer <sessionToken>\` for clients without cookies.
Rate limits count per client IP and route group; limited routes send \`x-ratelimit-limit\`, \`x-ratelimit-remaining\`
and \`x-ratelimit-reset\`, and a 429 RATE_LIMITED adds \`Retry-After\`. Prometheus metrics are served on a separate
internal port (METRICS_PORT), not on this one.`

export const openapiCollector = fp(
  async (app: FastifyInstance, opts: DocsOptions) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Swap gateway API', version: opts.version, description: DESCRIPTION },
        tags: [
          { name: 'catalog', description: 'Tokens and chains, served from the catalog cache' },
          { name: 'pricing', description: 'Quotes and swap limits' },
          { name: 'orders', description: 'Creating and reading orders' },
          { name: 'stream', description: 'Order status as server-sent events' },
          { name: 'auth', description: 'Wallet sign-in (SIWX) and sessions' },
          { name: 'ops', description: 'Health, readiness and documentation' },
        ],
      },
      transform: (input) => {
        const { schema, url } = jsonSchemaTransform(input)
        const group = input.route.config?.group ?? 'global'
        return { schema: { ...schema, 'x-rate-limit-group': group }, url }
      },
    })
  },
  { name: 'openapi-collector' },
)

export async function docsRoutes(app: FastifyInstance, opts: DocsOptions) {
  let document: OpenApiDocument | undefined
  const documentOf = () => {
    document ??= completeDocument(app.swagger() as OpenApiDocument, opts.apiPrefix)
    return document
  }
  const catalogue = errorCatalogue()
  const htmlPolicy = {
    defaultSrc: ["'none'"],
    styleSrc: [DOCS_STYLE_HASH],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
  }
  const html = 'text/html; charset=utf-8'

  app.get(
    `${opts.apiPrefix}/openapi.json`,
    { schema: { summary: 'This OpenAPI document', tags: ['ops'] } },
    async (_r, reply) => reply.header('cache-control', 'public, max-age=300').send(documentOf()),
  )
  app.get(
    `${opts.apiPrefix}/docs`,
    { schema: { summary: 'API documentation page', tags: ['ops'] }, config: { cspDirectives: htmlPolicy } },
    async (_r, reply) =>
      reply
        .header('cache-control', 'public, max-age=300')
        .type(html)
        .send(docsPage(documentOf(), catalogue, opts.apiPrefix)),
  )
  app.get(
    `${opts.apiPrefix}/docs/errors`,
    { schema: { summary: 'The error codes', tags: ['ops'] }, config: { cspDirectives: htmlPolicy } },
    async (_r, reply) =>
      reply
        .header('cache-control', 'public, max-age=300')
        .type(html)
        .send(errorsPage('Swap gateway API', catalogue, opts.apiPrefix)),
  )
}
