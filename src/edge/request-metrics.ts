// The edge's metrics: every request's time by route template, the problem documents sent, and the
// requests the rate limits refused.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LATENCY_BUCKETS } from '../observability/metrics.js'
import { groupOf } from './rate-limits.js'
import { routeUrlOf } from './route-group.js'

export const requestMetrics = fp(
  async (app: FastifyInstance) => {
    // Its `_count` series is the request count: no separate counter to update on every request.
    const latency = app.metrics.requestLatency({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer a request (a stream: its whole life), by method, route template and status',
      buckets: LATENCY_BUCKETS,
    })
    const problems = app.metrics.counter({
      name: 'gateway_http_problems_total',
      help: 'Problem documents sent, by route template and error code',
      labelNames: ['route', 'code'],
    })
    const rateLimited = app.metrics.counter({
      name: 'gateway_rate_limited_total',
      help: 'Requests refused with RATE_LIMITED, by rate-limit group',
      labelNames: ['group'],
    })
    app.addHook('onResponse', (request, reply, done) => {
      const route = routeUrlOf(request) ?? 'unmatched'
      latency.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000)
      const code = request.problemCode
      if (code) problems.inc({ route, code })
      if (code === 'RATE_LIMITED') rateLimited.inc({ group: String(groupOf(request)) })
      done()
    })
  },
  { name: 'request-metrics', dependencies: ['metrics', 'request-logging'] },
)
