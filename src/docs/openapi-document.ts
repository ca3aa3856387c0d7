// The OpenAPI 3.1 document, built from what each route declares where it is defined (`config.answers`,
// edge/route-answers.ts): @fastify/swagger lists the routes and their inputs; `operationAnswers` turns a
// route's declaration into its answers and security when the document is generated; `documentBase`
// and `completeDocument` add what belongs to the whole API (servers, security schemes, components).
import { ERROR_CODES, type ErrorCode, PROBLEM_CONTENT_TYPE } from '../errors.js'
import { problemSchema } from '../edge/problem-schema.js'
import { answerableCodes, type RouteAnswers, type SuccessAnswer } from '../edge/route-answers.js'
import { type CatalogueEntry, errorCatalogue } from './error-catalogue.js'
import { bodySchema, COMPONENTS, componentSchemas, type Json } from './json-schema.js'
import { webhookEvents } from './webhooks-document.js'

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

/** Where a route's answers and body name wait, on its operation, until `completeDocument` uses them. */
const ANSWERS_KEY = 'x-answers'
const BODY_KEY = 'x-body'
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** Answered by the parser or the router, before the rate limiter has counted the request. */
const BEFORE_LIMITER = new Set(['408', '414', '431'])

type Header = { description: string; schema: Json }
/** A count or a number of seconds, as a header carries it. */
const COUNT = { type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 }
/** Headers a client reads, by their canonical names (header names are case-insensitive on the wire). */
const HEADERS = {
  'X-Request-Id': {
    description:
      "This request's id: the client's own when sane, or one made by the gateway (a problem's `requestId`).",
    schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$' },
  },
  'X-RateLimit-Limit': {
    description: "Requests allowed per window in this route's rate-limit group.",
    schema: COUNT,
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: COUNT },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets.', schema: COUNT },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: COUNT },
  'Access-Control-Allow-Origin': {
    description:
      "The request's `Origin`, when it is an allowed cross origin (absent on same-origin requests).",
    schema: { type: 'string', format: 'uri', maxLength: 2048 },
  },
  'Access-Control-Allow-Credentials': {
    description:
      'With `Access-Control-Allow-Origin`: the browser may send and read credentials (the cookie).',
    schema: { type: 'string', enum: ['true'] },
  },
  'Access-Control-Expose-Headers': {
    description: 'With `Access-Control-Allow-Origin`: the response headers a cross-origin page may read.',
    schema: { type: 'string', maxLength: 512 },
  },
} satisfies Record<string, Header>
type HeaderName = keyof typeof HEADERS
const RATE_LIMIT_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
const CORS_HEADERS: HeaderName[] = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Credentials',
  'Access-Control-Expose-Headers',
]

/** The headers a route declares as its own (`SuccessAnswer.headers`), by name; text otherwise. */
const OWN_HEADER_SCHEMAS: Record<string, Json> = {
  ETag: { type: 'string', maxLength: 64 },
  'Cache-Control': { type: 'string', maxLength: 128 },
  'X-Cache-Status': { type: 'string', enum: ['HIT', 'STALE', 'MISS'] },
  'Idempotent-Replayed': { type: 'string', enum: ['true'] },
  // Browsers keep cookies of up to 4096 bytes.
  'Set-Cookie': { type: 'string', maxLength: 4096 },
}
const OWN_HEADER_DEFAULT = { type: 'string', maxLength: 1024 }

const header = (name: HeaderName, required: boolean) => ({
  ...HEADERS[name],
  ...(required ? { required } : {}),
})

/**
 * The headers of one answer: X-Request-Id always; the CORS grant on every answer to an allowed cross
 * origin; the rate limiter's on the answers of a limited route, required where it always counted first
 * (a success, a 429) and optional on a problem, which the router may have answered before it;
 * Retry-After on 429, and on a 503 that knows when.
 */
function answerHeaders(status: string, rateLimited: boolean, own: Record<string, string> = {}) {
  const headers: Json = {
    'X-Request-Id': header('X-Request-Id', true),
    ...Object.fromEntries(
      Object.entries(own).map(([name, description]) => [
        name,
        { description, schema: OWN_HEADER_SCHEMAS[name] ?? OWN_HEADER_DEFAULT },
      ]),
    ),
  }
  for (const name of CORS_HEADERS) headers[name] = header(name, false)
  if (rateLimited && !BEFORE_LIMITER.has(status)) {
    const always = Number(status) < 400 || status === '429'
    for (const name of RATE_LIMIT_HEADERS) headers[name] = header(name, always)
  }
  if (status === '429' || status === '503') headers['Retry-After'] = header('Retry-After', status === '429')
  return headers
}

const SESSION = [{ sessionCookie: [] }, { sessionToken: [] }]
/** `{}` first: the operation also works without a session. */
const securityOf = (session: RouteAnswers['session']) =>
  session === 'required' ? SESSION : session === 'optional' ? [{}, ...SESSION] : []

/**
 * A stream's `schema` is the union of its events' data, which generators that read only `schema`
 * type their events with; `x-events` names each event with its data, for readers that tell them apart.
 */
function streamMedia(events: NonNullable<SuccessAnswer['events']>) {
  const data = Object.values(events).map((schema) => bodySchema(schema))
  return {
    schema: data.length === 1 ? data[0] : { anyOf: data },
    'x-events': Object.fromEntries(
      Object.entries(events).map(([name, schema]) => [name, { data: bodySchema(schema) }]),
    ),
  }
}

function successResponse(status: string, answer: SuccessAnswer, rateLimited: boolean) {
  const media = answer.events
    ? streamMedia(answer.events)
    : answer.body && { schema: bodySchema(answer.body) }
  return {
    description: answer.description,
    headers: answerHeaders(status, rateLimited, answer.headers),
    ...(media ? { content: { [answer.contentType ?? 'application/json']: media } } : {}),
  }
}

/**
 * Every problem answer names its codes, each with its example (a catalogue entry of the document),
 * and narrows `code` to them, so a generated client (and ajv) knows which codes each status carries.
 */
function problemResponses(codes: ErrorCode[], byCode: Map<ErrorCode, CatalogueEntry>, rateLimited: boolean) {
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
        headers: answerHeaders(String(status), rateLimited),
        'x-error-codes': list,
        content: {
          [PROBLEM_CONTENT_TYPE]: {
            schema: {
              allOf: [PROBLEM, { type: 'object', properties: { code: { enum: list } }, required: ['code'] }],
            },
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
 * security and its answers (kept aside until completeDocument, which replaces swagger's own), and the
 * name of its request body when it has one.
 */
export function operationAnswers(answers: RouteAnswers, url: string, group: string | false, body?: string) {
  const rateLimited = group !== false
  const problems = answerableCodes(answers, url, rateLimited)
  const byCode = new Map(errorCatalogue().map((e) => [e.code, e]))
  const success = Object.fromEntries(
    Object.entries(answers.success).map(([status, answer]) => [
      status,
      successResponse(status, answer, rateLimited),
    ]),
  )
  return {
    security: securityOf(answers.session),
    'x-rate-limit-group': group,
    [ANSWERS_KEY]: { ...success, ...problemResponses(problems, byCode, rateLimited) },
    ...(body ? { [BODY_KEY]: body } : {}),
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

/** A loopback origin is a developer's own gateway; any other is a deployment. */
const environmentOf = (origin: string) =>
  /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin)
    ? 'local development'
    : 'a deployment (production or staging)'

/** What the whole API shares, in the shape @fastify/swagger's `openapi` option takes. */
export const documentBase = (ctx: DocumentContext) => ({
  servers: [
    {
      url: ctx.publicOrigin,
      description: `This gateway (PUBLIC_ORIGIN), ${environmentOf(ctx.publicOrigin)}.`,
      // Offered to the frontends of whoever runs it: public, not an internal API.
      'x-internal': false,
    },
  ],
  components: { securitySchemes: securitySchemes(ctx) },
})

/** The request body by its component name (swagger writes the schema inline). */
function namedBody(operation: Json, name: unknown): Json {
  if (typeof name !== 'string') return {}
  const requestBody = operation.requestBody as { content?: Record<string, Json> } | undefined
  const content = Object.fromEntries(
    Object.entries(requestBody?.content ?? {}).map(([type, media]) => [
      type,
      { ...media, schema: { $ref: `${COMPONENTS}${name}` } },
    ]),
  )
  return { requestBody: { ...requestBody, content } }
}

/** Puts each operation's declared answers in place and adds the catalogue. Pure: the input is not changed. */
export function completeDocument(generated: OpenApiDocument, ctx: DocumentContext): OpenApiDocument {
  const catalogue = errorCatalogue()
  const paths = Object.fromEntries(
    Object.entries(generated.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, value]) => {
          if (!METHODS.has(method)) return [method, value]
          const { [ANSWERS_KEY]: responses, [BODY_KEY]: body, ...operation } = value as Json
          return [method, { ...operation, ...namedBody(operation, body), responses }]
        }),
      ),
    ]),
  )
  const components = generated.components ?? {}
  const answered = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item).flatMap((op) =>
        Object.values(((op as Json).responses ?? {}) as Record<string, Json>).flatMap(
          (r) => (r['x-error-codes'] ?? []) as string[],
        ),
      ),
    ),
  )
  return {
    ...generated,
    paths,
    webhooks: webhookEvents(),
    components: {
      ...components,
      schemas: { ...(components.schemas as Json | undefined), ...componentSchemas() },
      // One example per code some operation answers (NOT_FOUND is for paths that are not one).
      examples: Object.fromEntries(
        catalogue.filter((e) => answered.has(e.code)).map((e) => [e.code, catalogueExample(e, ctx)]),
      ),
    },
  }
}
