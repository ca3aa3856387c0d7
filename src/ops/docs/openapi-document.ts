// The OpenAPI 3.1 document, built from what each route declares where it is defined (`config.answers`,
// edge/route-answers.ts): @fastify/swagger lists the routes and their inputs; `operationAnswers` turns a
// route's declaration into its answers and security when the document is generated; `documentBase`
// and `completeDocument` add what belongs to the whole API (servers, security schemes, components).
import { ERROR_CODES, type ErrorCode, PROBLEM_CONTENT_TYPE } from '../../errors.js'
import { problemSchema } from '../../edge/problem-schema.js'
import type { RouteAnswers, SuccessAnswer } from '../../edge/route-answers.js'
import { type CatalogueEntry, errorCatalogue } from './error-catalogue.js'
import { bodySchema, componentSchemas, type Json } from './json-schema.js'

const PROBLEM = bodySchema(problemSchema)

export interface OpenApiDocument extends Json {
  /** Path items: operations by method, and `servers`/`parameters`. */
  paths?: Record<string, Json>
  components?: Json
}

export interface DocumentContext {
  apiPrefix: string
  publicOrigin: string
  /** The session cookie's name at this origin (`__Host-session` over https, `session` otherwise). */
  sessionCookieName: string
}

/** Where a route's answers wait, on its operation, until `completeDocument` puts them in place. */
const ANSWERS_KEY = 'x-answers'
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** Problems any route under the API prefix can answer; RATE_LIMITED is added on rate-limited routes. */
const COMMON_PROBLEMS: readonly ErrorCode[] = ['ORIGIN_NOT_ALLOWED', 'INTERNAL', 'SERVICE_UNAVAILABLE']

const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': "Requests allowed per window in this route's group.",
  'x-ratelimit-remaining': 'Requests left in the current window.',
  'x-ratelimit-reset': 'Seconds until the window resets.',
}

const SESSION = [{ sessionCookie: [] }, { sessionToken: [] }]
/** `{}` first: the operation also works without a session. */
const securityOf = (session: RouteAnswers['session']) =>
  session === 'required' ? SESSION : session === 'optional' ? [{}, ...SESSION] : []

const headersOf = (descriptions: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(descriptions).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  )

/** The events of a stream, by name, with their data schemas: what OpenAPI 3.1 cannot say itself. */
const eventsOf = (events: NonNullable<SuccessAnswer['events']>) =>
  Object.fromEntries(Object.entries(events).map(([name, data]) => [name, { data: bodySchema(data) }]))

function successResponse(answer: SuccessAnswer, rateLimited: boolean) {
  const headers = { ...answer.headers, ...(rateLimited ? RATE_LIMIT_HEADERS : {}) }
  const media = answer.body && {
    schema: bodySchema(answer.body),
    ...(answer.events ? { 'x-events': eventsOf(answer.events) } : {}),
  }
  return {
    description: answer.description,
    ...(Object.keys(headers).length > 0 ? { headers: headersOf(headers) } : {}),
    ...(media ? { content: { [answer.contentType ?? 'application/json']: media } } : {}),
  }
}

/** Every problem answer names its codes, each with its example (a catalogue entry of the document). */
function problemResponses(codes: ErrorCode[], byCode: Map<ErrorCode, CatalogueEntry>) {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const meaning = (code: ErrorCode) => `\`${code}\`: ${byCode.get(code)?.meaning ?? ''}`
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description:
          list.length === 1
            ? meaning(list[0] as ErrorCode)
            : `One of:\n\n- ${list.map(meaning).join('\n- ')}`,
        'x-error-codes': list,
        content: {
          [PROBLEM_CONTENT_TYPE]: {
            schema: PROBLEM,
            examples: Object.fromEntries(
              list.map((code) => [code, { $ref: `#/components/examples/${code}` }]),
            ),
          },
        },
      },
    ]),
  )
}

/**
 * What @fastify/swagger's per-route transform adds to an operation: its rate-limit group, its
 * security and its answers (kept aside until completeDocument, which replaces swagger's own).
 */
export function operationAnswers(
  answers: RouteAnswers,
  url: string,
  group: string | false,
  apiPrefix: string,
) {
  const rateLimited = group !== false
  const problems: ErrorCode[] = [
    ...answers.problems,
    ...(url.startsWith(`${apiPrefix}/`) ? COMMON_PROBLEMS : []),
    ...(rateLimited ? (['RATE_LIMITED'] as const) : []),
  ]
  const byCode = new Map(errorCatalogue().map((e) => [e.code, e]))
  const success = Object.fromEntries(
    Object.entries(answers.success).map(([status, answer]) => [status, successResponse(answer, rateLimited)]),
  )
  return {
    security: securityOf(answers.session),
    'x-rate-limit-group': group,
    [ANSWERS_KEY]: { ...success, ...problemResponses(problems, byCode) },
  }
}

/** A code's entry of the catalogue: its meaning, and an example of its problem document. */
const catalogueExample = (entry: CatalogueEntry, ctx: DocumentContext) => ({
  summary: entry.title,
  description: `${entry.meaning} (HTTP ${entry.status}, retryable: ${entry.retryable ? 'yes' : 'no'})`,
  value: {
    type: `${ctx.publicOrigin}${ctx.apiPrefix}/docs/errors#${entry.slug}`,
    title: entry.title,
    status: entry.status,
    code: entry.code,
    detail: entry.title,
    retryable: entry.retryable,
    requestId: '3f1c1b8e-5d7a-4f0e-9a51-0a6c2b7d9e14',
  },
})

/** /metrics is not a route of the public server: it is described here, on its own internal port. */
const METRICS_PATH = {
  servers: [
    {
      url: 'http://{host}:{port}',
      description: 'The internal metrics port (METRICS_PORT); never exposed publicly.',
      variables: { host: { default: 'localhost' }, port: { default: '9091' } },
    },
  ],
  get: {
    operationId: 'getMetrics',
    summary: 'Prometheus metrics',
    tags: ['ops'],
    security: [],
    'x-rate-limit-group': false,
    responses: {
      '200': {
        description: 'Metrics in the Prometheus text format.',
        content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } },
      },
      '404': { description: 'Any other path; and /metrics on the public port.' },
    },
  },
}

function securitySchemes(ctx: DocumentContext) {
  return {
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: ctx.sessionCookieName,
      description:
        'The sealed session cookie set by sign-in (`POST /auth/siwx/verify`): `__Host-session` when the gateway is served over https, `session` otherwise. HttpOnly: browsers send it themselves.',
    },
    sessionToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        'The same sealed session as a Bearer token, for clients without cookies: sign in with the header `X-Session-Mode: token` to receive `sessionToken`.',
    },
  } as const
}

/** What the whole API shares, in the shape @fastify/swagger's `openapi` option takes. */
export const documentBase = (ctx: DocumentContext) => ({
  servers: [{ url: ctx.publicOrigin, description: 'This gateway (PUBLIC_ORIGIN).' }],
  components: { securitySchemes: securitySchemes(ctx) },
})

/** Puts each operation's declared answers in place and adds the catalogue. Pure: the input is not changed. */
export function completeDocument(generated: OpenApiDocument, ctx: DocumentContext): OpenApiDocument {
  const catalogue = errorCatalogue()
  const paths = Object.fromEntries(
    Object.entries(generated.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, value]) => {
          if (!METHODS.has(method)) return [method, value]
          const { [ANSWERS_KEY]: responses, ...operation } = value as Json
          return [method, { ...operation, responses }]
        }),
      ),
    ]),
  )
  const components = generated.components ?? {}
  return {
    ...generated,
    paths: { ...paths, '/metrics': METRICS_PATH },
    components: {
      ...components,
      schemas: { ...(components.schemas as Json | undefined), ...componentSchemas() },
      examples: Object.fromEntries(catalogue.map((e) => [e.code, catalogueExample(e, ctx)])),
    },
  }
}
