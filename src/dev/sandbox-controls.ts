// Development only: the built-in sandbox's control routes mounted under the gateway, at
// `${apiPrefix}/sandbox/…` → `/__sandbox/…`, so a page served by the gateway (the demo app) moves
// orders along, injects faults and lapses sessions same-origin. A real pass-through, so
// @fastify/http-proxy does it; only the listed control routes are mounted (the gateway is not an open
// proxy): not the sandbox's request log (it holds the tenant key and access tokens the gateway sent)
// nor its access-token minting (upstream tokens never reach browser code). The sandbox's `{error}`
// answers become problem documents like every other failure.
import { text } from 'node:stream/consumers'
import proxy from '@fastify/http-proxy'
import type { FastifyInstance } from 'fastify'
import type { GatewayError } from '../errors.js'
import { problems } from '../problems.js'
import type { RouteAnswers } from '../edge/route-answers.js'

export interface SandboxControlsOptions {
  apiPrefix: string
  /** Where the built-in sandbox listens. */
  sandboxUrl: string
}

/** Below the mount point; each is `/__sandbox` + the same path on the sandbox. */
const CONTROL_ROUTES = [
  '/orders',
  '/orders/:uuid',
  '/orders/:uuid/:action',
  '/time/advance',
  '/sessions/lapse',
  '/faults',
  '/tokens',
  '/tokens/:id',
  '/tokens/:id/price',
  '/chains/:id',
  '/streams',
  '/streams/close',
  '/auth/refresh-works',
]
/** The client's credentials and page stay here, as on every upstream call. */
const NOT_FORWARDED = ['cookie', 'authorization', 'origin', 'referer']

/** The sandbox's own reason, when its body is its JSON error. */
function reasonOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown }
    return typeof parsed.error === 'string' ? parsed.error : undefined
  } catch {
    return undefined
  }
}

function refusal(status: number | undefined, body: string): GatewayError {
  if (status === undefined || status >= 500) return problems.sandboxFailed()
  return problems.sandboxRefused(status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED', reasonOf(body))
}

const CONTROL_ANSWERS: RouteAnswers = {
  hidden: "the built-in sandbox's control routes, a development aid",
  success: { 200: { description: "The sandbox's answer, passed through." }, 204: { description: 'Done.' } },
  problems: ['VALIDATION_FAILED', 'NOT_FOUND', 'UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE'],
}

export async function sandboxControls(app: FastifyInstance, opts: SandboxControlsOptions) {
  // Not part of the public API: kept out of the OpenAPI document, declared for what they answer.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true }
    route.config = { ...route.config, answers: CONTROL_ANSWERS }
  })
  await app.register(proxy, {
    upstream: opts.sandboxUrl,
    prefix: `${opts.apiPrefix}/sandbox`,
    rewritePrefix: '/__sandbox',
    routes: CONTROL_ROUTES,
    // OPTIONS stays with the origin policy's preflight answer; HEAD is not a control call.
    httpMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    disableRequestLogging: true,
    replyOptions: {
      rewriteRequestHeaders: (_request, headers) => {
        const forwarded = { ...headers }
        for (const name of NOT_FORWARDED) delete forwarded[name]
        return forwarded
      },
      onResponse: (_request, reply, res) => {
        if (res.statusCode < 400) {
          reply.send(res.stream)
          return
        }
        void text(res.stream).then(
          (body) => reply.removeHeader('content-length').send(refusal(res.statusCode, body)),
          () => reply.removeHeader('content-length').send(refusal(undefined, '')),
        )
      },
      onError: (reply, { error }) => {
        reply.send(problems.sandboxUnreachable(error))
      },
    },
  })
}
