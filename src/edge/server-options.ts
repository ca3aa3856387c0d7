// The Fastify options of the gateway's server: what only the constructor takes. Our own request log
// line, ids, trusted proxies, body and URL limits, the answers to router and parser errors, and the
// connection times.
import { type FastifyBaseLogger, type FastifyServerOptions, LogController } from 'fastify'
import { errorTypeBase } from '../errors.js'
import { type ConnectionTimes, connectionLimits } from './connection-limits.js'
import { parserErrors } from './parser-errors.js'
import { requestIdOf } from './request-id.js'
import { requestLogFactory } from './request-log.js'
import { routerErrors } from './router-errors.js'
import type { TrustedProxies } from './trusted-proxies.js'
import { MAX_PARAM_LENGTH } from './url-limits.js'

export interface ServerOptions extends ConnectionTimes {
  apiPrefix: string
  publicOrigin: string
  /** TRUST_PROXY: addresses or ranges only (edge/trusted-proxies.ts). */
  trustProxy: TrustedProxies
}

export function serverOptions(opts: ServerOptions, logger: FastifyBaseLogger): FastifyServerOptions {
  const typeBase = errorTypeBase(opts.publicOrigin, opts.apiPrefix)
  return {
    loggerInstance: logger,
    // Our own one line per request replaces Fastify's two (edge/logging.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdOf,
    childLoggerFactory: requestLogFactory,
    // X-Forwarded-For is read from those peers alone.
    trustProxy: opts.trustProxy,
    bodyLimit: 64 * 1024,
    // A request that reaches a closing instance on an open connection is served, with Connection:
    // close (edge/draining.ts): by then the load balancer has stopped sending, so it is a late one.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: routerErrors(typeBase),
    clientErrorHandler: parserErrors(typeBase),
    ...connectionLimits(opts),
  }
}
