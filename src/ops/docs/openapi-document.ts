// Completes the document @fastify/swagger generates from the routes' zod schemas: each operation gets
// its success answers and its error answers (problem documents, grouped by status, each code linked to
// the catalogue), and the components hold the problem schema and the whole error catalogue.
import { z } from 'zod'
import { ERROR_CODES, type ErrorCode, PROBLEM_CONTENT_TYPE } from '../../errors.js'
import { type CatalogueEntry, errorCatalogue } from './error-catalogue.js'
import {
  COMMON_ERRORS,
  HEALTH_RESPONSES,
  ROUTE_RESPONSES,
  type RouteDoc,
  type SuccessDoc,
} from './route-responses.js'

type Json = Record<string, unknown>
interface Operation extends Json {
  responses?: Json
  'x-rate-limit-group'?: string | false
}
export interface OpenApiDocument extends Json {
  /** Path items: operations by method, and `servers`/`parameters`. */
  paths?: Record<string, Json>
  components?: Json
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

const toSchema = (schema: z.ZodType) => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
  })
  return json
}

export const problemSchema = {
  type: 'object',
  description: 'An RFC 9457 problem document. Clients branch on `code`.',
  required: ['type', 'title', 'status', 'code', 'detail', 'retryable', 'requestId'],
  properties: {
    type: { type: 'string', description: 'A URI naming the code: the docs page anchor of the code.' },
    title: { type: 'string', description: 'Short text for the code, the same for every occurrence.' },
    status: { type: 'integer', description: 'The HTTP status.' },
    code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'The stable machine code.' },
    detail: { type: 'string', description: 'Text for this occurrence, written by the gateway.' },
    retryable: { type: 'boolean', description: 'Whether the same request may succeed later, unchanged.' },
    requestId: { type: 'string', description: "This request's id, also in the x-request-id header." },
    errors: {
      type: 'array',
      description: 'VALIDATION_FAILED: one entry per bad field.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    retryAfter: { type: 'integer', description: 'RATE_LIMITED, UPSTREAM_UNAVAILABLE: seconds to wait.' },
  },
  additionalProperties: true,
}

const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': "Requests allowed per window in this route's group.",
  'x-ratelimit-remaining': 'Requests left in the current window.',
  'x-ratelimit-reset': 'Seconds until the window resets.',
}

function headersOf(descriptions: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(descriptions).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  )
}

function catalogueResponse(entry: CatalogueEntry, apiPrefix: string) {
  return {
    description: `${entry.title}. ${entry.meaning} (HTTP ${entry.status}, retryable: ${entry.retryable ? 'yes' : 'no'})`,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { $ref: '#/components/schemas/Problem' },
        example: {
          type: `${apiPrefix}/docs/errors#${entry.slug}`,
          title: entry.title,
          status: entry.status,
          code: entry.code,
          detail: entry.title,
          retryable: entry.retryable,
          requestId: '3f1c1b8e-5d7a-4f0e-9a51-0a6c2b7d9e14',
        },
      },
    },
  }
}

function successResponse(doc: SuccessDoc, rateLimited: boolean) {
  const headers = { ...doc.headers, ...(rateLimited ? RATE_LIMIT_HEADERS : {}) }
  return {
    description: doc.description,
    ...(Object.keys(headers).length > 0 ? { headers: headersOf(headers) } : {}),
    ...(doc.body
      ? { content: { [doc.contentType ?? 'application/json']: { schema: toSchema(doc.body) } } }
      : {}),
  }
}

function errorResponses(codes: ErrorCode[], byCode: Map<ErrorCode, CatalogueEntry>) {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => {
      const [only] = list
      if (list.length === 1 && only) return [String(status), { $ref: `#/components/responses/${only}` }]
      const lines = list.map((code) => `\`${code}\`: ${byCode.get(code)?.meaning ?? ''}`)
      return [
        String(status),
        {
          description: `One of:\n\n- ${lines.join('\n- ')}`,
          'x-error-codes': list,
          content: {
            [PROBLEM_CONTENT_TYPE]: {
              schema: { $ref: '#/components/schemas/Problem' },
              examples: Object.fromEntries(
                list.map((code) => [code, { $ref: `#/components/examples/${code}` }]),
              ),
            },
          },
        },
      ]
    }),
  )
}

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
    summary: 'Prometheus metrics',
    tags: ['ops'],
    'x-rate-limit-group': false,
    responses: {
      '200': {
        description: 'Metrics in the Prometheus text format (see docs/operations.md for the list).',
        content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } },
      },
      '404': { description: 'Any other path; and /metrics on the public port.' },
    },
  },
}

/** Adds answers and the error catalogue to the generated document. Pure: the input is not changed. */
export function completeDocument(generated: OpenApiDocument, apiPrefix: string): OpenApiDocument {
  const catalogue = errorCatalogue()
  const byCode = new Map(catalogue.map((e) => [e.code, e]))
  const paths: Record<string, Json> = {}
  for (const [path, item] of Object.entries(generated.paths ?? {})) {
    const below = path.startsWith(`${apiPrefix}/`) ? path.slice(apiPrefix.length) : path
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, value]) => {
        if (!METHODS.includes(method)) return [method, value]
        const operation = value as Operation
        const key = `${method.toUpperCase()} ${below}`
        const doc: RouteDoc = ROUTE_RESPONSES[key] ??
          HEALTH_RESPONSES[key] ?? { success: [{ status: 200, description: 'Success.' }], errors: [] }
        const rateLimited = operation['x-rate-limit-group'] !== false
        const errors: ErrorCode[] = [
          ...doc.errors,
          ...(path.startsWith(`${apiPrefix}/`) ? COMMON_ERRORS : []),
          ...(rateLimited ? (['RATE_LIMITED'] as const) : []),
        ]
        const success = Object.fromEntries(
          doc.success.map((s) => [String(s.status), successResponse(s, rateLimited)]),
        )
        return [method, { ...operation, responses: { ...success, ...errorResponses(errors, byCode) } }]
      }),
    )
  }
  const components = generated.components ?? {}
  return {
    ...generated,
    paths: { ...paths, '/metrics': METRICS_PATH },
    components: {
      ...components,
      schemas: { ...(components.schemas as Json | undefined), Problem: problemSchema },
      responses: Object.fromEntries(catalogue.map((e) => [e.code, catalogueResponse(e, apiPrefix)])),
      examples: Object.fromEntries(
        catalogue.map((e) => [
          e.code,
          { summary: e.title, value: catalogueResponse(e, apiPrefix).content[PROBLEM_CONTENT_TYPE].example },
        ]),
      ),
    },
  }
}
