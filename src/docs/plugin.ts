// The OpenAPI 3.1 document (at /api/openapi.json, built from each route's own declaration), the API
// reference rendered from it by Swagger UI (at /api/docs, its assets served from the package), and
// the error codes page (/api/docs/errors). `openapiCollector` is registered before the capabilities
// so that it sees their routes; `docsRoutes`, after them, adds the routes that serve the result.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { createJsonSchemaTransform } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { bodySender } from '../catalog/send.js'
import { Representation } from '../catalog/representation.js'
import { sessionCookieFor } from '../edge/cookies.js'
import type { RouteAnswers } from '../edge/route-answers.js'
import { pageHeaders } from '../edge/security-headers.js'
import { documented } from '../edge/wire-types.js'
import { VERSION } from '../version.js'
import { ERRORS_STYLE_HASH, errorsPage } from './errors-page.js'
import { errorCatalogue } from './error-catalogue.js'
import { tidy } from './json-schema.js'
import { accessibleReference, REFERENCE_CSS, withViewport } from './reference-theme.js'
import {
  completeDocument,
  type DocumentContext,
  documentBase,
  type OpenApiDocument,
  operationAnswers,
} from './openapi-document.js'

export interface DocsOptions {
  apiPrefix: string
  /** PUBLIC_ORIGIN: the document's server, and where problem `type` links and the reference point. */
  publicOrigin: string
}

const TITLE = 'Swap gateway API'

const description = (
  errorsUrl: string,
) => `A backend-for-frontend in front of a cross-chain swap service. Success bodies are the upstream's;
every failure is an \`application/problem+json\` document (\`Problem\`) with a stable \`code\`: [the error codes](${errorsUrl}).

Sessions: the session cookie set by sign-in, or \`Authorization: Bearer <sessionToken>\` for clients without cookies.
Rate limits count per client and route group; limited routes send \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`
and \`X-RateLimit-Reset\`, and a 429 RATE_LIMITED adds \`Retry-After\`.

Server-sent event streams (\`text/event-stream\`) type their answer's \`schema\` as the union of their events' data, and
name each event with its data under \`x-events\`. Prometheus metrics are served on a separate internal port
(METRICS_PORT), for operators only: they are not an operation of this API, and the public port answers \`/metrics\`
with 404 like any other unknown path.`

const contextOf = (opts: DocsOptions): DocumentContext => ({
  apiPrefix: opts.apiPrefix,
  publicOrigin: opts.publicOrigin,
  sessionCookieName: sessionCookieFor(opts.publicOrigin).name,
})

export const openapiCollector = fp(
  async (app: FastifyInstance, opts: DocsOptions) => {
    const ctx = contextOf(opts)
    const errorsUrl = `${opts.publicOrigin}${opts.apiPrefix}/docs/errors`
    // Inputs are zod schemas parsed from text: shown with their wire types (edge/wire-types.ts).
    const inputs = createJsonSchemaTransform({ skipList: [], zodToJsonConfig: { override: tidy } })
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: TITLE, version: VERSION, description: description(errorsUrl) },
        externalDocs: { description: 'The error codes, one anchor each', url: errorsUrl },
        tags: [
          { name: 'catalog', description: 'Tokens and chains, served from the catalog cache' },
          { name: 'pricing', description: 'Quotes and swap limits' },
          { name: 'orders', description: 'Creating, reading and following orders' },
          { name: 'auth', description: 'Wallet sign-in (SIWX) and sessions' },
          { name: 'ops', description: 'Health, readiness and documentation' },
          {
            name: 'webhooks',
            description: "Signed order events the gateway sends to the operator's backend",
          },
        ],
        ...documentBase(ctx),
      },
      transform: (input) => {
        const answers = input.route.config?.answers
        if (!answers || answers.hidden) return { schema: { hide: true }, url: input.url }
        const { schema, url } = inputs(input)
        const group = input.route.config?.group ?? 'global'
        const body = input.route.schema?.body
        const bodyName = body instanceof z.ZodType ? z.globalRegistry.get(body)?.id : undefined
        return {
          schema: { ...schema, ...operationAnswers(answers, input.route.url, group, bodyName) },
          url,
        }
      },
      transformObject: (input) =>
        completeDocument((input as { openapiObject: OpenApiDocument }).openapiObject, ctx),
    })
  },
  { name: 'openapi-collector' },
)

const html = 'text/html; charset=utf-8'
const page = (description: string) => ({
  description,
  contentType: 'text/html',
  body: documented(z.string(), { maxLength: 1_000_000 }),
})

/** What Swagger UI's page needs: its own scripts and styles, inline style attributes, data: images. */
const referencePolicy = (publicOrigin: string) => ({
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", publicOrigin],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
})

const REFERENCE_ANSWERS: RouteAnswers = {
  success: { 200: page('The API reference: every operation with its parameters, bodies and answers.') },
  problems: [],
}
const ASSET_ANSWERS: RouteAnswers = {
  hidden: "The reference page's own scripts, styles and its copy of this document.",
  success: { 200: { description: 'An asset of the reference page.' } },
  // A path the static-file server refuses is NOT_FOUND; a range or a precondition it cannot meet, VALIDATION_FAILED.
  problems: ['NOT_FOUND', 'VALIDATION_FAILED'],
}

/** Swagger UI, whose routes are declared here: it registers them without a route config of its own. */
async function reference(app: FastifyInstance, opts: DocsOptions) {
  const url = `${opts.apiPrefix}/docs`
  const headers = pageHeaders(referencePolicy(opts.publicOrigin), opts.publicOrigin.startsWith('https:'))
  app.addHook('onRoute', (route: RouteOptions) => {
    const isPage = route.url === url
    route.config = {
      ...route.config,
      answers: isPage ? REFERENCE_ANSWERS : ASSET_ANSWERS,
      ...(isPage ? { securityHeaderSet: headers } : {}),
    }
    if (isPage) {
      // The plugin's page template has no viewport: added here, so phones lay it out at their width.
      route.onSend = [
        ...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []),
        async (_request, _reply, payload) => (typeof payload === 'string' ? withViewport(payload) : payload),
      ]
    }
    if (isPage && route.method === 'GET') {
      route.schema = {
        summary: 'The API reference page',
        description:
          "This API's reference, rendered from this document, with a way to try each operation; every asset is served by the gateway.",
        tags: ['ops'],
        operationId: 'getReference',
      }
    }
  })
  await app.register(swaggerUi, {
    routePrefix: url,
    theme: {
      title: `${TITLE} reference`,
      css: [{ filename: 'accessible.css', content: REFERENCE_CSS }],
    },
    // BaseLayout: no top bar, whose URL box would load other documents and whose logo needs an inline style.
    uiConfig: {
      layout: 'BaseLayout',
      deepLinking: true,
      displayOperationId: true,
      withCredentials: true,
      docExpansion: 'list',
      plugins: [accessibleReference],
    },
  })
}

export const docsRoutes = fp(
  async (app: FastifyInstance, opts: DocsOptions) => {
    const catalogue = errorCatalogue()
    const send = bodySender('public, max-age=300')
    let representation: Representation | undefined
    const document = () => {
      representation ??= new Representation(Buffer.from(JSON.stringify(app.swagger())), {
        compressions: 0,
        serializations: 0,
      })
      return representation
    }
    app.addHook('onReady', async () => {
      await document().precompress()
    })
    const errorsPolicy = {
      defaultSrc: ["'none'"],
      styleSrc: [ERRORS_STYLE_HASH],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
    }

    app.get(
      `${opts.apiPrefix}/openapi.json`,
      {
        schema: {
          summary: 'This OpenAPI document',
          description:
            "This document, built from each route's own declarations: br or gzip by `Accept-Encoding`, with an `ETag` for `If-None-Match`.",
          tags: ['ops'],
          operationId: 'getOpenApiDocument',
        },
        config: {
          answers: {
            success: {
              200: {
                description:
                  'This OpenAPI 3.1 document, br or gzip by Accept-Encoding (Vary: Accept-Encoding).',
                body: z.looseObject({ openapi: documented(z.string(), { maxLength: 16 }) }),
                headers: {
                  ETag: 'Strong validator of this coding of the document; send it back in If-None-Match.',
                  'Cache-Control': 'public, max-age=300',
                },
              },
              304: { description: 'Not modified: the ETag sent in If-None-Match is current.' },
            },
            problems: [],
          },
        },
      },
      // Serialized and compressed (br, gzip) once, as the catalog's bodies are, then served by
      // Accept-Encoding with a strong ETag per coding.
      (request, reply) => send(request, reply, document()),
    )
    app.get(
      `${opts.apiPrefix}/docs/errors`,
      {
        schema: {
          summary: 'The error codes',
          description:
            'Every problem code with its HTTP status, its meaning and whether a retry may succeed; one `#code-slug` anchor each.',
          tags: ['ops'],
          operationId: 'getErrorCodes',
        },
        config: {
          cspDirectives: errorsPolicy,
          answers: { success: { 200: page('The error codes, one `#code-slug` anchor each.') }, problems: [] },
        },
      },
      async (_r, reply) =>
        reply
          .header('cache-control', 'public, max-age=300')
          .type(html)
          .send(errorsPage(TITLE, catalogue, opts.apiPrefix)),
    )
    await app.register(reference, opts)
  },
  { name: 'docs', dependencies: ['openapi-collector'] },
)
