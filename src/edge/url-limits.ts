// How long a request target and a path parameter may be: longer is URI_TOO_LONG, whether the router,
// the parser or this check finds it first.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { problems } from '../problems.js'

/** Longest request target (path and query) served; longer is URI_TOO_LONG. Common proxies stop at 8 KiB. */
export const MAX_URL_LENGTH = 8 * 1024
/** Longest path parameter: an order uuid is 36 characters, a token id a few digits. */
export const MAX_PARAM_LENGTH = 100

/** A URL over MAX_URL_LENGTH that the parser let through (it fits the header budget) is refused. */
export const requestTargetLimit = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      done(request.url.length > MAX_URL_LENGTH ? problems.requestTargetTooLong() : undefined)
    })
  },
  { name: 'request-target-limit' },
)
